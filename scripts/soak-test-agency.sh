#!/usr/bin/env sh
# The agency soak as the agency contract (§7.1, §8) names it:
#   ./scripts/soak-test-agency.sh [MINUTES] [npm run soak options...]
# MINUTES defaults to 12; results go to docs/testing/soak-results/soak-<timestamp>.log.
set -eu
cd "$(dirname "$0")/.."
minutes="${1:-12}"
if [ "$#" -gt 0 ]; then shift; fi
exec npm run --silent soak -- --minutes "$minutes" --log-dir docs/testing/soak-results "$@"
