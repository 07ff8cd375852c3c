#!/usr/bin/env bash
# `make deb`: dist/feedbase_<version>_amd64.deb (dpkg-deb alone, no debhelper), a .tar.gz of the
# executable for hosts without dpkg, and dist/SHA256SUMS over both.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The executable to package (make deb passes the one compiled onto a stripped runtime).
exe=${1:?usage: build-deb.sh EXECUTABLE}
dist=$root/dist
version=$(sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' "$root/package.json" | head -1)
logged=$(sed -n '1s/^feedbase (\([^)]*\)).*/\1/p' "$here/changelog")
if [ "$version" != "$logged" ]; then
	echo "deploy/debian/changelog: its first entry is $logged but package.json says $version (add an entry)" >&2
	exit 1
fi
# The units installed, and those the maintainer scripts enable, start and stop (the backup service
# is started by its timer alone).
units="feedbase.service feedbase-backup.service feedbase-backup.timer"
enabled="feedbase.service feedbase-backup.timer"
deb=$dist/feedbase_${version}_amd64.deb
tarball=$dist/feedbase_${version}_linux-amd64.tar.gz
# Same sources, same bytes: file times and archive member times come from the last commit.
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git -C "$root" log -1 --format=%ct 2>/dev/null || date +%s)}

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
pkg=$stage/feedbase
doc=$pkg/usr/share/doc/feedbase
install -D -m 0755 "$exe" "$pkg/usr/bin/feedbase"
for unit in $units; do install -D -m 0644 "$root/deploy/$unit" "$pkg/lib/systemd/system/$unit"; done
install -D -m 0644 "$here/feedbase.sysusers" "$pkg/usr/lib/sysusers.d/feedbase.conf"
install -D -m 0644 "$here/feedbase.tmpfiles" "$pkg/usr/lib/tmpfiles.d/feedbase.conf"
# It may name secret files (a metrics token, TLS keys): root's alone; systemd reads it before dropping to the service user.
install -D -m 0600 "$root/deploy/feedbase.env" "$pkg/etc/feedbase/feedbase.env"
install -D -m 0644 "$root/README.md" "$doc/README.md"
# The README links the guides in docs/ (and they the verification scripts): they go beside it, as in the source tree.
for guide in "$root"/docs/*.md "$root"/docs/verify/*; do install -D -m 0644 "$guide" "$doc/${guide#"$root"/}"; done
install -m 0644 "$here/copyright" "$doc/copyright"
install -D -m 0644 "$here/lintian-overrides" "$pkg/usr/share/lintian/overrides/feedbase"
for example in prometheus/prometheus.yml prometheus/feedbase-alerts.yml litestream.yml; do
	install -D -m 0644 "$root/deploy/$example" "$doc/examples/$(basename "$example")"
done
gzip -9n <"$here/changelog" >"$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

install -d -m 0755 "$pkg/DEBIAN"
size=$(du -sk --apparent-size "$pkg" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@SIZE@/$size/" "$here/control.in" >"$pkg/DEBIAN/control"
install -m 0644 "$here/conffiles" "$pkg/DEBIAN/conffiles"
for script in postinst prerm postrm; do
	sed "s/@UNITS@/$enabled/" "$here/$script" >"$pkg/DEBIAN/$script"
	chmod 0755 "$pkg/DEBIAN/$script"
done
(cd "$pkg" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | LC_ALL=C sort -z | xargs -0 md5sum) >"$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/md5sums"
find "$pkg" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

mkdir -p "$dist"
rm -f "$dist"/feedbase_*_amd64.deb "$dist"/feedbase_*_linux-amd64.tar.gz "$dist/SHA256SUMS"
# xz at level 1: a tenth of level 6's time on the 90 MB executable for a few percent more bytes.
dpkg-deb --root-owner-group -Zxz -z1 --build "$pkg" "$deb" >/dev/null
tar --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" -C "$pkg/usr/bin" -czf "$tarball" feedbase
(cd "$dist" && sha256sum "$(basename "$deb")" "$(basename "$tarball")" >SHA256SUMS)
echo "$deb"
echo "$tarball"
echo "$dist/SHA256SUMS"
