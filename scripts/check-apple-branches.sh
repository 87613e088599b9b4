#!/usr/bin/env bash
# Type-checks, on a machine without Apple's SDKs, the code that only Apple platforms compile:
# the `#if canImport(Combine)` branches of Sources/Observable (ObservableClass's
# ObservableObject conformance and its objectWillChange sender), and the C shims' `__APPLE__`
# branches (os_unfair_lock, and the turn in a word of its own, where Linux shares the futex
# word) and their plain-POSIX ones. ObservableKit has no `canImport(ObjectiveC)` branch.
# Owner binding is the same code on every platform (Owners/OwnerLifetime.swift says why).
#
#   bash scripts/check-apple-branches.sh
#
# How: scripts/apple-stand-ins/ declares the Apple symbols those branches use, with the
# signatures of Apple's SDK (README.md there says how faithful that is). Built as a module
# named Combine and put on the import path, it makes `canImport(Combine)` true, and the real
# sources of both library modules are compiled against it in Swift 6 mode, warnings as
# errors. Then the Combine branch is linked with the stand-in and a small program run against
# it (see the end of this script).
# On macOS, where the real modules exist, the build itself checks these branches: the script
# says so and exits.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(uname -s)" = Darwin ]; then
  echo "check-apple-branches.sh: on macOS the Apple-only branches build with the real SDK (swift build); nothing to do."
  exit 0
fi

out=.build-apple-branches
rm -rf "$out"
mkdir -p "$out/modules"

common=(-swift-version 6 -warnings-as-errors -parse-as-library -package-name observablekit
  -module-cache-path "$out/module-cache" -I "$out/modules")

echo "Building the stand-in: Combine"
for module in Combine; do
  swiftc "${common[@]}" -emit-module -module-name "$module" \
    -emit-module-path "$out/modules/$module.swiftmodule" "scripts/apple-stand-ins/$module.swift"
done

# The C shims, as SwiftPM presents them: a module map over the public header.
cat >"$out/modules/module.modulemap" <<MAP
module ObservableKitShims {
  header "$PWD/Sources/ObservableKitShims/include/ObservableKitShims.h"
  export *
}
MAP

sources() { find "$1" -name '*.swift' | sort; }

# The C shims as Apple's and a plain POSIX system's compilers see them: <os/lock.h> and
# pthread_main_np come from scripts/apple-stand-ins/c. Syntax and types only, warnings as errors.
echo "Checking the C shims' __APPLE__ and plain-POSIX branches"
for flags in "-U__linux__ -U__gnu_linux__ -D__APPLE__ -I scripts/apple-stand-ins/c" "-U__linux__ -U__gnu_linux__"; do
  # shellcheck disable=SC2086
  clang -std=gnu11 -fsyntax-only -Wall -Wextra -Werror $flags \
    -I Sources/ObservableKitShims/include Sources/ObservableKitShims/shims.c
done

echo "Type-checking ObservableKit against the shims' Apple module map (debug and release conditions)"
for conditions in "-D DEBUG -D OBSERVABLEKIT_SCHEDULE_POINTS" ""; do
  # shellcheck disable=SC2086
  swiftc "${common[@]}" $conditions -emit-module -module-name ObservableKit \
    -emit-module-path "$out/modules/ObservableKit.swiftmodule" $(sources Sources/ObservableKit)
done
# No stand-in makes canImport(ObjectiveC) true: a branch behind it would go unchecked here.
! grep -rlq 'canImport(ObjectiveC)' Sources/ObservableKit ||
  { echo "check-apple-branches.sh: a canImport(ObjectiveC) branch is in Sources/ObservableKit; give it a stand-in in scripts/apple-stand-ins/ and compile it here" >&2; exit 1; }

echo "Type-checking Observable with canImport(Combine)"
swiftc "${common[@]}" -D DEBUG -emit-module -module-name Observable \
  -emit-module-path "$out/modules/Observable.swiftmodule" $(sources Sources/Observable)

# Built and run: Sources/Observable's Combine branch, linked with the stand-in Combine (whose
# ObservableObjectPublisher delivers, and whose default objectWillChange is a new publisher
# per access, as Combine's is for a class that stores none), and a program that subscribes to
# an ObservableClass's objectWillChange (scripts/apple-stand-ins/programs/ObjectWillChange.swift).
echo "Running a program against the stand-in Combine: objectWillChange.send() and notifyChange() reach a subscriber"
run="$out/run"
mkdir -p "$run/modules"
cp "$out/modules/module.modulemap" "$run/modules/"
clang -std=gnu11 -c -I Sources/ObservableKitShims/include Sources/ObservableKitShims/shims.c -o "$run/shims.o"
runflags=(-swift-version 6 -warnings-as-errors -parse-as-library -package-name observablekit
  -module-cache-path "$out/module-cache" -I "$run/modules" -D DEBUG)
build_object() {  # module name, sources...
  local module=$1; shift
  swiftc "${runflags[@]}" -wmo -c -module-name "$module" -emit-module \
    -emit-module-path "$run/modules/$module.swiftmodule" -o "$run/$module.o" "$@"
}
build_object Combine scripts/apple-stand-ins/Combine.swift
# shellcheck disable=SC2046
build_object ObservableKit -D OBSERVABLEKIT_SCHEDULE_POINTS $(sources Sources/ObservableKit)
# shellcheck disable=SC2046
build_object Observable $(sources Sources/Observable)
swiftc -swift-version 6 -warnings-as-errors -module-cache-path "$out/module-cache" -I "$run/modules" \
  -module-name ObjectWillChange scripts/apple-stand-ins/programs/ObjectWillChange.swift \
  "$run/Combine.o" "$run/ObservableKit.o" "$run/Observable.o" "$run/shims.o" -o "$run/object-will-change"
"$run/object-will-change"

echo "check-apple-branches.sh: the canImport(Combine) branches and the C shims' Apple branches type-check against the stand-ins, and the Combine branch's objectWillChange reaches a subscriber"
