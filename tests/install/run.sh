#!/usr/bin/env bash
# sdperf installed like any Debian tool (issue 15 §4). `cpack -G DEB` in the
# build tree (reused, not rebuilt) makes sdperf_VERSION_ARCH.deb; its
# Depends name the package of every shared library the binary needs and the
# font packages, each installed here in a version that satisfies it; it
# holds the binary, the man page and the completion in their places. Then
# dpkg installs it into a throw-away root (never the real system) and
# removes it again; the installed binary prints the same --version as the
# build tree's and writes the same reports of an example profile; man,
# groff and mandoc render and lint the installed page without a warning,
# and it lists every command, option and exit code of --help.
# Usage: tests/install/run.sh SDPERF BUILD_DIR
SDPERF=$(realpath "$1")
BUILD=$(realpath "$2")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../testlib.sh
. "$(dirname "$0")/../testlib.sh"

for tool in cpack dpkg-deb dpkg-shlibdeps man groff mandoc readelf; do
	if ! command -v "$tool" >/dev/null; then
		bad "tool_$tool" "$tool is missing (tools/setup.sh test installs it)"
		finish
		exit
	fi
done

# --- the package, from the build tree
version=$("$SDPERF" --version | sed -n '1s/^sdperf //p')
arch=$(dpkg --print-architecture)
deb=$T/pkg/sdperf_${version}_${arch}.deb
if cpack -G DEB -B "$T/pkg" --config "$BUILD/CPackConfig.cmake" >cpack.log 2>&1 &&
	[ -f "$deb" ]; then
	ok "package $(basename "$deb")"
else
	bad package "no $deb" "$(tail -5 cpack.log)" "$(ls "$T/pkg" 2>&1)"
	finish
	exit
fi

# --- Depends: the package of each library the binary needs (as ldd finds
# it here, whatever path dpkg knows it by), and the fonts
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
has_dep() { grep -qE "(^|, )$1( \(|,|$)" <<<"$depends"; }
owner() { # path -> the package that installed it (usr-merge aware)
	local p=$1 alt
	case "$p" in
	/usr/*) alt=${p#/usr} ;;
	*) alt=/usr$p ;;
	esac
	dpkg -S "$p" 2>/dev/null || dpkg -S "$alt" 2>/dev/null
}
for soname in $(readelf -d "$SDPERF" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
	path=$(ldd "$SDPERF" | awk -v s="$soname" '$1 == s { print $3 }')
	pkg=$(owner "$path" | head -1 | sed 's/[:,].*//')
	if [ -z "$pkg" ]; then
		bad "depends $soname" "no package owns '$path'"
	elif has_dep "$pkg"; then
		ok "depends $soname: $pkg"
	else
		bad "depends $soname" "$pkg (owner of $path) is not in Depends"
	fi
done
for pkg in fonts-dejavu-core fonts-wqy-zenhei; do
	has_dep "$pkg" && ok "depends $pkg" || bad "depends $pkg" "not in Depends"
done
# each dependency installed here, in a version that satisfies it
while read -r dep; do
	name=${dep%% *}
	installed=$(dpkg-query -W -f='${Status}|${Version}' "$name" 2>/dev/null)
	rel=$(sed -n 's/.*(\([<>=]*\) \(.*\))/\1 \2/p' <<<"$dep")
	if [ "${installed%%|*}" != "install ok installed" ]; then
		bad "satisfied $dep" "$name is not installed"
	elif [ -n "$rel" ] && ! dpkg --compare-versions "${installed#*|}" \
		"$(sed 's/>=/ge/; s/<=/le/; s/>>/gt/; s/<</lt/; s/^=/eq/' <<<"${rel% *}")" "${rel#* }"; then
		bad "satisfied $dep" "installed: ${installed#*|}"
	else
		ok "satisfied $dep"
	fi
done < <(tr ',' '\n' <<<"$depends" | sed 's/^ *//; /|/d')

# --- the files, in their standard places under /usr
dpkg-deb -c "$deb" | awk '{ print $6 }' >contents
for f in ./usr/bin/sdperf ./usr/share/man/man1/sdperf.1.gz \
	./usr/share/bash-completion/completions/sdperf ./usr/share/doc/sdperf/README.md; do
	grep -qx "$f" contents && ok "contains $f" || bad "contains $f" "$(cat contents)"
done
stray=$(grep -v '^\./usr/' contents | grep -v '^\./$')
[ -z "$stray" ] && ok "everything under /usr" || bad "everything under /usr" "$stray"

# --- installed into a throw-away root: dpkg itself with --root when run as
# root (its own database there, the real one untouched; the dependencies
# are checked against this system above), else unpacked with dpkg-deb -x
R=$T/root
if [ "$(id -u)" -eq 0 ]; then
	mkdir -p "$R/var/lib/dpkg/info" "$R/var/lib/dpkg/updates"
	touch "$R/var/lib/dpkg/status" "$R/var/lib/dpkg/available"
	# --path-include: the whole package, even where the system's dpkg
	# config leaves out /usr/share/man or /usr/share/doc (slim images)
	if dpkg --root="$R" --force-depends --no-triggers --path-include='*' \
		-i "$deb" >dpkg.log 2>&1 &&
		dpkg --root="$R" -s sdperf >status.txt 2>&1 &&
		grep -qx 'Status: install ok installed' status.txt; then
		ok "dpkg --root installs it"
	else
		bad "dpkg --root installs it" "$(tail -5 dpkg.log)"
	fi
else
	dpkg-deb -x "$deb" "$R" && ok "dpkg-deb -x (not root)" || bad "dpkg-deb -x"
fi
BIN=$R/usr/bin/sdperf
PAGE=$R/usr/share/man/man1/sdperf.1.gz

# the same --version as the build tree's binary
if [ -x "$BIN" ] && diff <("$SDPERF" --version) <("$BIN" --version) >version.diff; then
	ok "installed --version"
	sed 's/^/     /' <("$BIN" --version)
else
	bad "installed --version" "$(cat version.diff)"
fi
"$BIN" --completion bash | cmp -s - "$R/usr/share/bash-completion/completions/sdperf" &&
	ok "installed completion" || bad "installed completion" "not sdperf --completion bash"

# a real report: the same bytes, every format, as the build tree's binary
# (both called as "sdperf" from PATH, into ./out of their own folder)
report() { # dir bin-dir
	mkdir -p "$1" && (cd "$1" && PATH="$2:$PATH" SOURCE_DATE_EPOCH=0 \
		sdperf report "$ROOT/examples/image-dit-1card" -o out -q -j 2)
}
if report installed "$R/usr/bin" && report built "$(dirname "$SDPERF")"; then
	for f in report.json report.html report.md report.pdf; do
		if [ -s "installed/out/$f" ] && cmp -s "installed/out/$f" "built/out/$f"; then
			ok "installed report: $f"
		else
			bad "installed report: $f" "missing, empty or unlike the build tree's"
		fi
	done
else
	bad "installed report" "sdperf report failed"
fi

# --- the man page: found through MANPATH, rendered without a warning
found=$(MANPATH=$R/usr/share/man man -w sdperf 2>&1)
[ "$found" = "$PAGE" ] && ok "man -w finds it" || bad "man -w finds it" "$found"
MANWIDTH=80 man --warnings=w -l "$PAGE" >page.txt 2>man.err
if [ -s page.txt ] && [ ! -s man.err ]; then
	ok "man -l renders it"
else
	bad "man -l renders it" "$(head -5 man.err)"
fi
zcat "$PAGE" | groff -ww -z -man -Tutf8 -rLL=78n 2>groff.err
[ ! -s groff.err ] && ok "groff -ww: no warning" || bad "groff -ww" "$(head -5 groff.err)"
mandoc -T lint -W warning "$PAGE" >mandoc.err 2>&1
[ ! -s mandoc.err ] && ok "mandoc -T lint: no warning" || bad "mandoc -T lint" "$(head -5 mandoc.err)"
grep -q "^sdperf $version .*SDPERF(1)$" page.txt && ok "page footer: sdperf $version" ||
	bad "page footer" "$(tail -1 page.txt)"

# every option, command and exit code of --help is on the page
section() { sed -n "/^$1\$/,/^[A-Z]/p" page.txt >"section.txt"; }
"$SDPERF" --help >help.txt
section OPTIONS
missing=""
for opt in $(grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' help.txt | grep -oE -- '--[a-z-]+'); do
	grep -qE -- "(^| )$opt( |$)" section.txt || missing="$missing $opt"
done
[ -z "$missing" ] && ok "every option" || bad "every option" "missing:$missing"
missing=""
section COMMANDS
for cmd in $(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' help.txt); do
	grep -qE "^       $cmd( |$)" section.txt || missing="$missing $cmd"
done
[ -s section.txt ] && [ -z "$missing" ] && ok "every command" ||
	bad "every command" "missing:$missing"
codes=$(sed -n '/^exit codes:/,/^$/p' help.txt | grep -oE '(: |, )[0-9]+ ' | grep -oE '[0-9]+')
missing=""
section 'EXIT STATUS'
for code in $codes; do
	grep -qE "^       $code( |$)" section.txt || missing="$missing $code"
done
[ -n "$codes" ] && [ -z "$missing" ] && ok "every exit code ($(echo $codes))" ||
	bad "every exit code" "missing:$missing"

# --- removed again: nothing left behind
if [ "$(id -u)" -eq 0 ]; then
	if dpkg --root="$R" --no-triggers -r sdperf >>dpkg.log 2>&1 &&
		[ -z "$(find "$R/usr" -type f 2>/dev/null)" ]; then
		ok "dpkg --root removes it"
	else
		bad "dpkg --root removes it" "$(find "$R/usr" -type f | head -3)"
	fi
fi

finish
