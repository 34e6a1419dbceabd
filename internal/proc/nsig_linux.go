package proc

// NSIG is one more than the largest signal number (64 real-time included), as <signal.h>.
const NSIG = 65
