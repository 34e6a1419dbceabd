package uring

// OpSendmsg is IORING_OP_SENDMSG: sendmsg(2) of the msghdr at Addr, with OpFlags as its
// flags. (OpSend is send(2) of one buffer: Addr and Len.)
const OpSendmsg uint8 = 9
