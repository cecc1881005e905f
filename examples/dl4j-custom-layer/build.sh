#!/usr/bin/env bash
# Builds build/dl4j-custom-layer.jar, a user's own DL4J layers, against gradcheck's jar and its dependencies
# (deeplearning4j-nn and ND4J among them). Needs a built gradcheck: running bin/gradcheck once builds it.
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
jar --create --file "$here/build/dl4j-custom-layer.jar" -C "$here/build/classes" .
echo "built $here/build/dl4j-custom-layer.jar" >&2
