#!/bin/sh
# Writes the HTML report of a run and a screenshot of it as headless Chromium shows it.
#   tools/html-screenshot.sh SPEC_PATH... -- writes gradcheck-report.html and gradcheck-report.png here
# Needs Debian's chromium (apt-get install -y chromium). The page is self-contained: no script, no network.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
"$here/bin/gradcheck" check "$@" --format html --output gradcheck-report.html || true
browser=$(command -v chromium || command -v chromium-browser || command -v google-chrome) || {
    echo "html-screenshot: no chromium on PATH (apt-get install -y chromium)" >&2; exit 2; }
"$browser" --headless --no-sandbox --disable-gpu --window-size=1280,2400 \
    --screenshot="$PWD/gradcheck-report.png" "file://$PWD/gradcheck-report.html" 2>/dev/null
echo "wrote gradcheck-report.html and gradcheck-report.png" >&2
