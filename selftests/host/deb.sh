#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb: padnet-dkms and padnet-tools build into build/deb/ and lintian
# finds no error and no warning in them (overrides carry their reasons);
# padnet-tools' plugin sits where this machine's stock ip looks for it and
# loads there; dkms builds padnet-dkms's modules, as its postinst would,
# against Debian's stock kernel headers as the test bed unpacks them (DKMS
# trees of its own in build/deb/: nothing is installed or loaded on this
# machine). The padtun-dkms scenario boots the modules this builds.
# kernels: distro
top=${PADNET_TOP:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$top" || exit 1
command -v dpkg-deb > /dev/null || { echo "not a Debian machine: no dpkg-deb"; exit 4; }
make -s deps > /dev/null || { echo "not ok - make deps (dkms, lintian, dpkg-dev)"; exit 1; }
rc=0
check() {	# check STATUS DESCRIPTION
	if [ "$1" = 0 ]; then echo "ok - $2"; else echo "not ok - $2"; rc=1; fi
}

out=$top/build/deb
# What this machine's DKMS and /usr/src hold before: the same after.
state() { ls -A /var/lib/dkms /usr/src 2>/dev/null; }
before=$(state)
make -s deb > /dev/null
check $? "make deb"
dkms_deb=$(ls "$out"/padnet-dkms_*_all.deb 2>/dev/null)
tools_deb=$(ls "$out"/padnet-tools_*_amd64.deb 2>/dev/null)
if [ ! -f "$dkms_deb" ] || [ ! -f "$tools_deb" ]; then
	check 1 "two packages in build/deb/"
	exit 1
fi
echo "# $(basename "$dkms_deb") $(basename "$tools_deb")"

lint=$(lintian -I -E --pedantic --fail-on error,warning "$dkms_deb" "$tools_deb" 2>&1)
check $? "lintian: no error, no warning"
echo "$lint" | grep -v '^running with root privileges' | sed 's/^/# lintian: /'

# The packages' metadata and contents.
dkms_files=$(dpkg-deb -c "$dkms_deb" | awk '{ print $6 }')
tools_files=$(dpkg-deb -c "$tools_deb" | awk '{ print $6 }')
version=$(dpkg-deb -f "$dkms_deb" Version)
src=./usr/src/padnet-${version%-*}
dpkg-deb -f "$dkms_deb" Depends | grep -qw dkms &&
	dpkg-deb -f "$tools_deb" Depends | grep -qw libc6 &&
	dpkg-deb -f "$tools_deb" Depends | grep -qw iproute2
check $? "Depends: dkms; libc6 and iproute2"
missing=""
for f in dkms.conf padata/Kbuild net/Kbuild padata/include/padnet/padata.h \
	net/include/uapi/linux/padtun.h; do
	echo "$dkms_files" | grep -qxF "$src/$f" || missing+=" $f"
done
dpkg-deb --fsys-tarfile "$dkms_deb" | tar -xOf - "$src/dkms.conf" > "$out/dkms.conf.check"
for want in 'AUTOINSTALL="yes"' 'BUILT_MODULE_NAME\[0\]="padata"' \
	'BUILT_MODULE_NAME\[1\]="padtun"' "PACKAGE_VERSION=\"${version%-*}\""; do
	grep -q "^$want" "$out/dkms.conf.check" || missing+=" dkms.conf:$want"
done
rm -f "$out/dkms.conf.check"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
for f in usr/bin/seqcheck usr/bin/udpload usr/bin/replayinject \
	"usr/lib/$multiarch/ip/link_padtun.so"; do
	echo "$tools_files" | grep -qxF "./$f" || missing+=" $f"
done
for page in docs/man/*.[1-8]; do
	[ -f "$page" ] || continue
	p=$(basename "$page")
	echo "$tools_files" | grep -qxF "./usr/share/man/man${p##*.}/$p.gz" || missing+=" $p"
done
[ -z "$missing" ]
check $? "package contents (sources, dkms.conf, tools, plugin, manual pages)${missing:+: missing$missing}"

# The plugin where the stock ip (Debian's iproute2) looks for plugins, and
# loading there: "ip link help padtun" needs no module.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$tools_deb" "$tmp"
strings /usr/bin/ip | grep -qxF "/usr/lib/$multiarch/ip" &&
	IP_LIB_DIR=$tmp/usr/lib/$multiarch/ip /usr/bin/ip link help padtun 2>&1 | grep -q 'padtun'
check $? "the plugin is in /usr/lib/$multiarch/ip, the stock ip's plugin directory, and loads"

# dkms build against Debian's kernel headers, unpacked by the test bed.
kdir=$(qemu-net/build-kernel.sh distro) || { check 1 "Debian's kernel headers"; exit 1; }
release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")
if packaging/dkms-build.sh --force "$dkms_deb" "$kdir" "$out/dkms-distro" > "$out/dkms-distro.log" 2>&1; then
	check 0 "dkms build -k $release against the unpacked headers"
else
	sed 's/^/# /' "$out/dkms-distro.log" | tail -n 40
	check 1 "dkms build -k $release against the unpacked headers"
	exit 1
fi
bad=""
for m in padata padtun; do
	ko=$out/dkms-distro/lib/modules/$release/updates/dkms/$m.ko
	[ -f "$ko" ] || { bad+=" $m: not built"; continue; }
	[ "$(modinfo -F vermagic "$ko" | cut -d' ' -f1)" = "$release" ] || bad+=" $m: vermagic"
done
modinfo -F depends "$out/dkms-distro/lib/modules/$release/updates/dkms/padtun.ko" 2>/dev/null |
	tr ',' '\n' | grep -qx padata || bad+=" padtun: does not depend on padata"
[ -z "$bad" ]
check $? "padata.ko and padtun.ko for $release, padtun depending on padata${bad:+:$bad}"
[ "$(state)" = "$before" ]
check $? "nothing added to this machine's /var/lib/dkms or /usr/src"
exit $rc
