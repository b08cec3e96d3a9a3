# SPDX-License-Identifier: GPL-2.0
# The two guests' address plan and test key, named once for both sets of
# helpers: lib/padtun.sh (the padtun scenarios) and lib/tunnels.sh (demo/,
# bench/, coexist-pcrypt) source this. Sourced inside a guest after
# guest.sh (ROLE).
#
# Addresses (RFC 2544's 198.18.0.0/15): 198.18.0.x is the virtio-net link
# (guest-init), 198.18.N.x a further address pair on it (tunnels.sh: ESP
# SA N); 198.19.N.x the inside of tunnel N (padtun.sh's padtun0: N = 0).
# Guest a is .1, guest b is .2.
#
# The key is a fixed test key, the same in both guests: the tunnels carry
# test traffic between two guests on one host and nothing else. 32 bytes,
# as chacha20poly1305 and gcm-aes (AES-256) take it.

KEY=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f

# mine NET / theirs NET: this guest's and the peer's address in 198.NET.0/24.
mine() { [ "$ROLE" = a ] && echo "198.$1.1" || echo "198.$1.2"; }
theirs() { [ "$ROLE" = a ] && echo "198.$1.2" || echo "198.$1.1"; }
