#!/bin/sh
# Prints the directory of a python3 that has Jinja2 3.1 and PyYAML, the
# reference the tests compare promptgen with, installing them first where
# needed, without root: make test puts the directory first on PATH.
#   1. the system's python3 (/usr/bin/python3, Debian's python3-jinja2);
#   2. a virtualenv under Go's build cache, pinned to Debian bookworm's
#      versions (Jinja2 3.1.2, MarkupSafe 2.1.2, PyYAML 6.0), from PyPI;
#   3. where PyPI cannot be reached, Debian's own packages, unpacked (not
#      installed) into the same cache with apt-get download and dpkg-deb.
set -eu
has() { "$1" -c 'import jinja2, yaml, sys; sys.exit(not jinja2.__version__.startswith("3.1."))' 2>/dev/null; }

if has /usr/bin/python3; then
	echo /usr/bin
	exit 0
fi
cache=$(go env GOCACHE)/promptgen-python
if has "$cache/bin/python3"; then
	echo "$cache/bin"
	exit 0
fi
rm -rf "$cache"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if python3 -m venv "$cache" >"$log" 2>&1 &&
	"$cache/bin/pip" install -q Jinja2==3.1.2 MarkupSafe==2.1.2 PyYAML==6.0 >>"$log" 2>&1 &&
	has "$cache/bin/python3"; then
	echo "$cache/bin"
	exit 0
fi
rm -rf "$cache"
mkdir -p "$cache/bin" "$cache/debs"
if (cd "$cache/debs" && apt-get download python3-jinja2 python3-markupsafe python3-yaml) >>"$log" 2>&1; then
	for deb in "$cache"/debs/*.deb; do dpkg-deb -x "$deb" "$cache/root"; done
	site=$(ls -d "$cache"/root/usr/lib/python3*/dist-packages | head -n 1)
	printf '#!/bin/sh\nPYTHONPATH=%s${PYTHONPATH:+:$PYTHONPATH} exec /usr/bin/python3 "$@"\n' "$site" >"$cache/bin/python3"
	chmod +x "$cache/bin/python3"
	if has "$cache/bin/python3"; then
		echo "$cache/bin"
		exit 0
	fi
fi
cat "$log" >&2
echo "promptgen: the tests need python3 with Jinja2 3.1 and PyYAML, and neither pip nor apt-get download could fetch them: install python3-jinja2 and python3-yaml" >&2
exit 1
