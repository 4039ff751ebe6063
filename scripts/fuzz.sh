#!/usr/bin/env bash
# libFuzzer targets for the parsers, built with AddressSanitizer (see shared/TOOLING.md).
#   scripts/fuzz.sh --list              names the targets
#   scripts/fuzz.sh --build             only builds them (CI builds them beside other checks)
#   scripts/fuzz.sh TARGET SECONDS      builds and runs one for SECONDS from its seed corpus
#                                       (Fuzz/corpus/TARGET); exits non-zero on a crash, a
#                                       broken invariant, a leak or a timeout, leaving the
#                                       reproducer in fuzz-artifacts/TARGET/
# FUZZ_MAX_LEN (default 4096) bounds an input: longer ones mostly repeat what short ones reach
# and run several times slower.
# Reproduce: FUZZ_TARGET=TARGET SWIFT_BACKTRACE=enable=no .build-fuzz/release/fuzz fuzz-artifacts/TARGET/crash-…
set -euo pipefail
cd "$(dirname "$0")/.."
TARGETS=(http json journal criteria)

if [[ "${1:-}" == "--list" ]]; then printf '%s\n' "${TARGETS[@]}"; exit 0; fi

build() {
  command -v ld.lld >/dev/null || ls /opt/swift/usr/bin/ld.lld >/dev/null 2>&1 || {
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq lld >/dev/null; }
  # Release with -enable-testing: fast enough for millions of runs, and the targets reach internal parsers.
  swift build -c release --product fuzz --scratch-path .build-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld -Xswiftc -enable-testing -Xswiftc -g >/dev/null
}
if [[ "${1:-}" == "--build" ]]; then build; exit 0; fi

TARGET="${1:?usage: scripts/fuzz.sh --list | --build | TARGET SECONDS}"
SECONDS_TO_RUN="${2:?usage: scripts/fuzz.sh TARGET SECONDS}"
[[ " ${TARGETS[*]} " == *" $TARGET "* ]] || { echo "fuzz: unknown target '$TARGET' (see --list)" >&2; exit 2; }
build

CORPUS=$(mktemp -d)
trap 'rm -rf "$CORPUS"' EXIT
cp -r "Fuzz/corpus/$TARGET/." "$CORPUS/"
mkdir -p "fuzz-artifacts/$TARGET"
FUZZ_TARGET="$TARGET" SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=1 .build-fuzz/release/fuzz \
  -max_total_time="$SECONDS_TO_RUN" -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-4096}" -print_final_stats=1 \
  -artifact_prefix="fuzz-artifacts/$TARGET/" "$CORPUS"
