#!/bin/sh
# padtun as a tester meets it, no test knobs: on Debian's stock kernel (the
# modules built as for the demo and the benchmark) and on the check kernel,
# iperf3 TCP and UDP both ways (UDP: 0 datagrams out of order), then a
# sequence-checked stream each way: complete and in order.
# kernels: distro check
# guests: 2
# cpus: 2
# mem: 1024
# timeout: 300
# modules: padata padtun
. /selftests/lib/guest.sh
. /selftests/lib/padtun.sh

padtun_add transform chacha20poly1305
ok $? "ip link add padtun0 type padtun"
padtun_up
ok $? "padtun0 up with $ME"
# The link's two padata instances, tx's created first.
[ "$(padata_instances)" = 2 ]
ok $? "the link's two padata instances, the guest's only ones"
link_serial_snapshot
sync_with_peer links-up

both_ways_traffic

ethtool -S padtun0 > "$RESULTS/ethtool.txt"
[ "$(stat rx_auth_failed)" = 0 ] && [ "$(stat rx_replayed)" = 0 ]
ok $? "no auth failure, no replay"
# serial() of both directions on the callback CPU, the list's first (0):
# receive's callback CPU is transmit's unless configured apart.
link_serial_since
[ "$tx_serial" = 0 ] && [ "$rx_serial" = 0 ]
ok $? "serial() of tx on CPU $tx_serial, of rx on CPU $rx_serial (want 0 and 0)"
ip link del padtun0
ok $? "ip link del padtun0"
tap_exit
