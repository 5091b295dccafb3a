#!/usr/bin/env bash
# sdperf set-up: installs what is missing (Debian 12 packages), configures,
# builds, then renders the example report (demo) or runs every test (test).
#
#   tools/setup.sh demo    build + render examples/image-dit-1card
#   tools/setup.sh test    build + the whole test suite (plain, then
#                          ASan+UBSan, then a short fuzz run)
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT=$(pwd)
MODE=${1:-demo}

BUILD_PKGS="cmake make gcc pkg-config libcjson-dev libcsv-dev libhpdf-dev libcmocka-dev zlib1g-dev libsqlite3-dev fonts-dejavu-core fonts-wqy-zenhei"
# dpkg-dev (dpkg-shlibdeps: the .deb's Depends), man-db, groff-base and
# mandoc: tests/install packs, installs, renders and lints the man page;
# parallel, shellcheck and python3-yaml: the cluster launchers (tests/cluster)
TEST_PKGS="clang libclang-rt-14-dev python3 poppler-utils qpdf time cmark-gfm dpkg-dev man-db groff-base mandoc parallel shellcheck python3-yaml"
# Browser tests (tests/browser): Debian's chromium, driven by playwright-core
# (pinned to 1.61.1, which runs on node >= 18) installed by npm. A node and
# npm already on PATH are used as they are: this project's machines come with
# NodeSource's nodejs 20, whose package bundles npm and conflicts with
# Debian's npm package, so asking apt for npm there would fail. A fresh
# Debian 12 has neither: Debian's nodejs (18.20) and npm (9.2) are installed
# then (npm brings some 350 small node-* packages along).
BROWSER_PKGS="chromium"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
	BROWSER_PKGS="$BROWSER_PKGS nodejs npm"
fi

missing_pkgs() {
	local p out=""
	for p in "$@"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			out="$out $p"
		fi
	done
	echo "$out"
}

ensure_pkgs() {
	local miss
	miss=$(missing_pkgs "$@")
	[ -z "$miss" ] && return 0
	if [ "$(id -u)" -ne 0 ]; then
		echo "sdperf setup: missing Debian packages:$miss" >&2
		echo "run as root:  apt-get update && apt-get install -y$miss" >&2
		echo "(or run this script as root, which does it for you)" >&2
		exit 1
	fi
	echo "sdperf setup: installing$miss" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $miss >/dev/null
}

configure_build() { # dir, extra cmake args...
	local dir=$1
	shift
	cmake -S "$ROOT" -B "$dir" -DSDPERF_WERROR=ON "$@" >/dev/null
	cmake --build "$dir" -j"$(nproc)" -- --no-print-directory >/dev/null
}

PASSED=0
run_ctest() { # build dir; counts the tests that passed
	local log n
	log=$(mktemp)
	ctest --test-dir "$1" --output-on-failure -j"$(nproc)" | tee "$log"
	n=$(sed -n 's/.*tests passed, 0 tests failed out of \([0-9]*\).*/\1/p' "$log")
	rm -f "$log"
	[ -n "$n" ] || exit 1
	PASSED=$((PASSED + n))
}

case "$MODE" in
demo)
	ensure_pkgs $BUILD_PKGS
	configure_build build -DCMAKE_BUILD_TYPE=Release
	build/src/sdperf report examples/image-dit-1card -o build/example-report
	echo
	echo "example report written to build/example-report/"
	;;
test)
	ensure_pkgs $BUILD_PKGS $TEST_PKGS $BROWSER_PKGS
	echo "== build (warnings are errors)"
	configure_build build
	echo "== tests"
	run_ctest build
	echo "== build with AddressSanitizer + UndefinedBehaviorSanitizer"
	configure_build build-asan -DSDPERF_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug
	echo "== tests under ASan+UBSan"
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		run_ctest build-asan
	echo "== fuzzing (bounded)"
	CC=clang configure_build build-fuzz -DSDPERF_FUZZ=ON -DSDPERF_TESTS=OFF \
		-DCMAKE_BUILD_TYPE=Debug
	"$ROOT/tests/fuzz/run.sh" build-fuzz "${SDPERF_FUZZ_SECONDS:-22}" |
		tee build-fuzz/fuzz.log
	# each fuzz target that ran clean counts as a passed test
	PASSED=$((PASSED + $(grep -c '^fuzz_.*: clean$' build-fuzz/fuzz.log)))
	echo
	echo "$PASSED passed, 0 failed"
	;;
*)
	echo "usage: tools/setup.sh demo|test" >&2
	exit 2
	;;
esac
