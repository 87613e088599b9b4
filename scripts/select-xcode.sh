#!/usr/bin/env bash
# Selects the newest released Xcode 26 installed on a macOS runner, never a beta or a
# release candidate, and fails loudly when there is none.
#
#   bash scripts/select-xcode.sh               # on a macOS runner (sudo xcode-select -s …)
#   bash scripts/select-xcode.sh --self-test   # anywhere: the choice over fake installations
#
# Why not `ls -d /Applications/Xcode_26*.app | sort -V | tail -1`: the runner images install
# betas and release candidates beside the releases (Xcode_26.1_beta.app,
# Xcode_26.0_Release_Candidate.app), some of them without simulator runtimes, and that glob
# picks them. Two tests reject a prerelease: its name (beta, RC, Release Candidate), and its
# build number, which for a prerelease ends in a lower-case letter (17B5035f) and for a
# release does not (17A400).
set -euo pipefail

# Prints the chosen Xcode.app under $1, or fails listing what it rejected.
choose() {
  local root=$1 app build rejected=() candidates=()
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
    chosen=$app
    break
  done < <(printf '%s\n' "${candidates[@]+"${candidates[@]}"}" | sort -rV)
  if [ -z "$chosen" ]; then
    {
      echo "error: no released Xcode 26 under $root/Xcode_26*.app"
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
  fake() {  # name, build
    mkdir -p "$tmp/$1/Contents/Developer/usr/bin"
    printf '#!/bin/sh\necho "Xcode 26"\necho "Build version %s"\n' "$2" >"$tmp/$1/Contents/Developer/usr/bin/xcodebuild"
    chmod +x "$tmp/$1/Contents/Developer/usr/bin/xcodebuild"
  }
  fake Xcode_26.0.app 17A324
  fake Xcode_26.0.1.app 17A400
  fake Xcode_26.1_beta.app 17B5025f
  fake Xcode_26.2_Release_Candidate.app 17C48
  fake Xcode_26.3.app 17D5044a   # a prerelease with a release's name
  local got
  got=$(choose "$tmp")
  [ "$got" = "$tmp/Xcode_26.0.1.app" ] ||
    { echo "select-xcode self-test: chose $got, not Xcode_26.0.1.app" >&2; return 1; }
  rm -rf "$tmp"/Xcode_26.0.app "$tmp"/Xcode_26.0.1.app
  if choose "$tmp" >/dev/null 2>&1; then
    echo "select-xcode self-test: chose a prerelease when no release is installed" >&2; return 1
  fi
  echo "select-xcode self-test: the newest release is chosen over betas and release candidates; none is an error"
}

if [ "${1:-}" = --self-test ]; then
  self_test
  exit
fi
xcode=$(choose /Applications)
echo "Using $xcode"
sudo xcode-select -s "$xcode/Contents/Developer"
xcodebuild -version
swift --version
