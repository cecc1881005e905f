#!/usr/bin/env bash
# Builds build/linear-op.jar, the example plugin, against gradcheck's own jar and its dependencies.
# Needs a built gradcheck (target/gradcheck.jar and target/lib/): running bin/gradcheck once builds it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
if [ ! -f "$root/target/gradcheck.jar" ] || [ ! -d "$root/target/lib" ]; then
  echo "build gradcheck first, e.g. run: $root/bin/gradcheck --version" >&2
  exit 2
fi
rm -rf "$here/build"
mkdir -p "$here/build/classes"
javac --release 17 -cp "$root/target/gradcheck.jar:$root/target/lib/*" -d "$here/build/classes" \
  $(find "$here/src/main/java" -name '*.java')
cp -R "$here/src/main/resources/." "$here/build/classes/"
jar --create --file "$here/build/linear-op.jar" -C "$here/build/classes" .
echo "built $here/build/linear-op.jar" >&2
