#!/usr/bin/env bash
# Install the Debian packages the app (`run`) or the test suite (`test`) needs, if missing.
set -euo pipefail
purpose=${1:-test}

need=()
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
command -v msgfmt >/dev/null 2>&1 || need+=(gettext)
if [ "$purpose" = test ]; then
  [ -x /usr/bin/chromium ] || need+=(chromium)
  command -v pdftoppm >/dev/null 2>&1 || need+=(poppler-utils)
  # pdffonts lists a CID font (the PDFs' fallback) only with Adobe-Japan1's CMaps.
  [ -d /usr/share/poppler/cMap/Adobe-Japan1 ] || need+=(poppler-data)
  [ -e /usr/share/fonts/opentype/ipaexfont-gothic ] || [ -e /usr/share/fonts/truetype/ipaexfont-gothic ] \
    || need+=(fonts-ipaexfont-gothic fonts-ipaexfont-mincho)
  # The second test run's throw-away server (scripts/test-postgres.sh); Debian keeps it off PATH.
  compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || need+=(postgresql)
fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "Missing Debian packages: ${need[*]}. Install them as root: apt-get install ${need[*]}" >&2
    exit 1
  fi
else
  SUDO=
fi
echo "Installing Debian packages: ${need[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
