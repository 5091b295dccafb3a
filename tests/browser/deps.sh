# Sourced by run.sh and selftest.sh: makes sure node, npm, Chromium and
# tests/browser/node_modules are there. Needs HERE (this folder).
# shellcheck shell=bash

CHROMIUM=${SDPERF_CHROMIUM:-/usr/bin/chromium}

browser_deps() {
	local major
	if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
		echo "FAIL node and npm are needed (tools/setup.sh test installs them)" >&2
		return 1
	fi
	major=$(node -p 'process.versions.node.split(".")[0]')
	if [ "$major" -lt 18 ]; then
		echo "FAIL node $(node --version) is too old: playwright-core 1.61 needs node >= 18" >&2
		return 1
	fi
	if [ ! -x "$CHROMIUM" ]; then
		echo "FAIL no Chromium at $CHROMIUM (Debian package chromium; tools/setup.sh test installs it)" >&2
		return 1
	fi
	[ -f "$HERE/node_modules/playwright-core/package.json" ] && return 0
	# ctest may start run.sh and selftest.sh at once: one npm ci at a time
	# (flock on this folder itself, opened read-only as fd 9).
	# shellcheck disable=SC2094
	(
		flock 9
		if [ ! -f "$HERE/node_modules/playwright-core/package.json" ]; then
			echo "installing node packages in $HERE (npm ci)" >&2
			cd "$HERE" && npm ci --no-audit --no-fund --loglevel=error >&2
		fi
	) 9<"$HERE"
}
