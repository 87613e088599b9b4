#!/usr/bin/env bash
# Selects the newest released Xcode 26 installed on a macOS runner, never a beta or a
# release candidate, and fails loudly when there is none.
#
#   bash scripts/select-xcode.sh               # on a macOS runner (sudo xcode-select -s …)
#   bash scripts/select-xcode.sh --swift 6.2   # the newest released Xcode 26 whose Swift is 6.2
#   bash scripts/select-xcode.sh --self-test   # anywhere: the choice over fake installations
#
# `--swift` asks each candidate's own toolchain (`swift --version`), not its name: Xcode 26.0
# to 26.3 carry Swift 6.2, and the jobs that build with it say which Swift they need, not
# which Xcode.
#
# Why not `ls -d /Applications/Xcode_26*.app | sort -V | tail -1`: the runner images install
# betas and release candidates beside the releases (Xcode_26.1_beta.app,
# Xcode_26.0_Release_Candidate.app), some of them without simulator runtimes, and that glob
# picks them. Two tests reject a prerelease: its name (beta, RC, Release Candidate), and its
# build number, which for a prerelease ends in a lower-case letter (17B5035f) and for a
# release does not (17A400).
set -euo pipefail

# Prints the chosen Xcode.app under $1 (whose Swift is $2, if given), or fails listing what
# it rejected.
choose() {
  local root=$1 swift=${2:-} app build version rejected=() candidates=()
  shopt -s nullglob
  for app in "$root"/Xcode_26*.app; do
    candidates+=("$app")
  done
  shopt -u nullglob
  local chosen=""
  while IFS= read -r app; do
    [ -n "$app" ] || continue
    case "$(basename "$app" | tr '[:upper:]' '[:lower:]')" in
      *beta* | *_rc* | *-rc* | *release_candidate* | *release-candidate*)
        rejected+=("$app (prerelease by name)"); continue ;;
    esac
    build=$("$app/Contents/Developer/usr/bin/xcodebuild" -version 2>/dev/null | awk '/Build version/ { print $3 }') || build=""
    if [ -z "$build" ]; then
      rejected+=("$app (xcodebuild -version gave no build number)"); continue
    fi
    if [[ "$build" =~ [a-z]$ ]]; then
      rejected+=("$app (prerelease build $build)"); continue
    fi
    if [ -n "$swift" ]; then
      version=$("$app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift" --version 2>/dev/null | head -n 1) || version=""
      if ! [[ "$version" =~ Swift\ version\ ${swift//./\\.}([^0-9]|$) ]]; then
        rejected+=("$app (not Swift $swift: ${version:-no swift --version})"); continue
      fi
    fi
    chosen=$app
    break
  done < <(printf '%s\n' "${candidates[@]+"${candidates[@]}"}" | sort -rV)
  if [ -z "$chosen" ]; then
    {
      echo "error: no released Xcode 26${swift:+ with Swift $swift} under $root/Xcode_26*.app"
      for r in "${rejected[@]+"${rejected[@]}"}"; do echo "  rejected: $r"; done
    } >&2
    return 1
  fi
  echo "$chosen"
}

self_test() {
  local tmp
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' RETURN
  fake() {  # name, build, Swift version
    local bin="$tmp/$1/Contents/Developer/usr/bin" toolchain="$tmp/$1/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin"
    mkdir -p "$bin" "$toolchain"
    printf '#!/bin/sh\necho "Xcode 26"\necho "Build version %s"\n' "$2" >"$bin/xcodebuild"
    printf '#!/bin/sh\necho "swift-driver version: 1.127 Apple Swift version %s (swiftlang-%s)"\n' "$3" "$3" >"$toolchain/swift"
    chmod +x "$bin/xcodebuild" "$toolchain/swift"
  }
  fake Xcode_26.0.app 17A324 6.2
  fake Xcode_26.0.1.app 17A400 6.2
  fake Xcode_26.1_beta.app 17B5025f 6.2.1
  fake Xcode_26.2_Release_Candidate.app 17C48 6.2.3
  fake Xcode_26.3.app 17D5044a 6.2.4   # a prerelease with a release's name
  local got
  got=$(choose "$tmp")
  [ "$got" = "$tmp/Xcode_26.0.1.app" ] ||
    { echo "select-xcode self-test: chose $got, not Xcode_26.0.1.app" >&2; return 1; }
  # By Swift version: 26.4 carries 6.3, so asking for 6.2 keeps 26.0.1; 6.20 is not 6.2.
  fake Xcode_26.4.app 17E192 6.3
  fake Xcode_26.9.app 17Z100 6.20
  got=$(choose "$tmp")
  [ "$got" = "$tmp/Xcode_26.9.app" ] ||
    { echo "select-xcode self-test: chose $got, not the newest release, Xcode_26.9.app" >&2; return 1; }
  got=$(choose "$tmp" 6.2)
  [ "$got" = "$tmp/Xcode_26.0.1.app" ] ||
    { echo "select-xcode self-test: --swift 6.2 chose $got, not Xcode_26.0.1.app" >&2; return 1; }
  got=$(choose "$tmp" 6.3)
  [ "$got" = "$tmp/Xcode_26.4.app" ] ||
    { echo "select-xcode self-test: --swift 6.3 chose $got, not Xcode_26.4.app" >&2; return 1; }
  rm -rf "$tmp"/Xcode_26.0.app "$tmp"/Xcode_26.0.1.app "$tmp"/Xcode_26.4.app "$tmp"/Xcode_26.9.app
  if choose "$tmp" >/dev/null 2>&1; then
    echo "select-xcode self-test: chose a prerelease when no release is installed" >&2; return 1
  fi
  if choose "$tmp" 6.2 >/dev/null 2>&1; then
    echo "select-xcode self-test: --swift 6.2 chose a prerelease" >&2; return 1
  fi
  echo "select-xcode self-test: the newest release is chosen over betas and release candidates, by Swift version when asked; none is an error"
}

if [ "${1:-}" = --self-test ]; then
  self_test
  exit
fi
swift=""
if [ "${1:-}" = --swift ]; then
  swift=${2:?"--swift needs a version, e.g. 6.2"}
fi
xcode=$(choose /Applications "$swift")
echo "Using $xcode"
sudo xcode-select -s "$xcode/Contents/Developer"
xcodebuild -version
swift --version
