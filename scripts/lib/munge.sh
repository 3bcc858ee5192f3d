# Makes sure a munged is running so the psec/munge tests have something to
# talk to. Idempotent: a munged that already answers is left alone, and a
# munged this script did not start is never stopped or restarted.
#
#   source scripts/lib/munge.sh && pmixpp_ensure_munged    # from another script
#   bash scripts/lib/munge.sh                              # on its own
#
# Returns 1 with one line saying what to do when munged cannot be made to run
# (for example when not root and no munged is running).

pmixpp_munge_log() { printf '[pmixpp] munge: %s\n' "$*" >&2; }

pmixpp_munge_works() {
  command -v munge >/dev/null 2>&1 && command -v unmunge >/dev/null 2>&1 || return 1
  munge -n 2>/dev/null | unmunge >/dev/null 2>&1
}

# munged refuses a key that others can read, so create it owner-only.
pmixpp_munge_make_key() {
  local key=/etc/munge/munge.key
  [ -s "$key" ] && return 0
  pmixpp_munge_log "creating $key"
  install -d -m 0700 -o munge -g munge /etc/munge
  if command -v mungekey >/dev/null 2>&1; then
    mungekey --create --keyfile="$key" >/dev/null 2>&1 || true
  fi
  if [ ! -s "$key" ]; then
    dd if=/dev/urandom of="$key" bs=1 count=1024 status=none
  fi
  chown munge:munge "$key"
  chmod 0400 "$key"
}

# The directories munged checks (run, state, log) must exist and be its own.
pmixpp_munge_make_dirs() {
  local dir
  for dir in /run/munge /var/lib/munge /var/log/munge; do
    install -d -m 0755 -o munge -g munge "$dir"
  done
  chmod 0700 /var/lib/munge /var/log/munge
}

pmixpp_munge_start() {
  if id munge >/dev/null 2>&1 && command -v runuser >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged && return 0
    pmixpp_munge_log "munged as user munge failed; trying as root with --force"
  fi
  /usr/sbin/munged --force
}

pmixpp_ensure_munged() {
  if pmixpp_munge_works; then
    return 0
  fi
  if [ ! -x /usr/sbin/munged ]; then
    pmixpp_munge_log "munged is not installed (apt-get install munge libmunge-dev)"
    return 1
  fi
  if [ "$(id -u)" -ne 0 ]; then
    pmixpp_munge_log "munged is not running and only root can start it (sudo systemctl start munge)"
    return 1
  fi
  pmixpp_munge_make_key
  pmixpp_munge_make_dirs
  pmixpp_munge_log "starting munged"
  pmixpp_munge_start || true
  local tries
  for tries in $(seq 1 50); do
    if pmixpp_munge_works; then
      return 0
    fi
    sleep 0.1
  done
  pmixpp_munge_log "munged did not answer 'munge -n | unmunge' (see /var/log/munge/munged.log)"
  return 1
}

# Run directly: do it now.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  pmixpp_ensure_munged
fi
