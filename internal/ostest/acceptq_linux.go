package ostest

import (
	"bufio"
	"fmt"
	"os"
	"strings"
)

// AcceptQueue returns how many connections wait in the accept queue of the TCP listener on
// 127.0.0.1:port: the rx_queue of its LISTEN line in /proc/net/tcp, or -1 if there is none.
func AcceptQueue(port uint16) (int, error) {
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		return -1, err
	}
	defer f.Close()
	local := fmt.Sprintf("0100007F:%04X", port)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local_address rem_address st tx_queue:rx_queue ...; st 0A is LISTEN
		f := strings.Fields(sc.Text())
		if len(f) > 4 && f[1] == local && f[3] == "0A" {
			var tx, rx int
			if _, err := fmt.Sscanf(f[4], "%x:%x", &tx, &rx); err == nil {
				return rx, nil
			}
		}
	}
	return -1, sc.Err()
}
