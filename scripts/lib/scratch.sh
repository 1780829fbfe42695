# Sourced by the scripts that install packages outside the repository (msw 3, ky 2, the Jest apps), where the
# repository's node_modules cannot be found first.
#
# scratch_dir REPO GIVEN NAME: sets `scratch` to GIVEN (created when missing), or when GIVEN is empty to a fresh
# temporary directory removed on exit; refuses a directory inside REPO.
scratch_dir() {
  local repo=$1 given=$2 name=$3
  if [[ -n "$given" ]]; then
    scratch="$given"
    mkdir -p "$scratch"
  else
    scratch="$(mktemp -d "${TMPDIR:-/tmp}/storefront-$name.XXXXXX")"
    trap 'rm -rf "$scratch"' EXIT
  fi
  case "$scratch/" in
    "$repo"/*) echo "$name: the scratch directory must be outside the repository ($repo)" >&2; exit 2 ;;
  esac
}
