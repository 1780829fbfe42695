# Sourced by the scripts that run something on another Node than the one on PATH (the tests on Node 22 and 24,
# msw 3, ky 2). The binary is the npm package `node@MAJOR`, which npx fetches into its cache (~/.npm/_npx).
#
# node_dir MAJOR: the folder of that Node's binary. npx asks the registry which version `node@MAJOR` is each time
# (seconds), so .ci/run asks once and exports the folder as CI_NODE_<MAJOR> for the steps after it.
node_dir() {
  local major=$1 given="CI_NODE_$1"
  if [[ -n "${!given:-}" ]]; then
    echo "${!given}"
  else
    dirname "$(npx --yes --package "node@$major" -- node -p process.execPath)"
  fi
}

# with_node MAJOR COMMAND...: runs COMMAND with Node MAJOR first on PATH (for COMMAND and what it starts).
with_node() {
  local dir
  dir=$(node_dir "$1")
  shift
  PATH="$dir:$PATH" "$@"
}
