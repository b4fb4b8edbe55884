# Ends what the CLI started once the CLI is gone, however it went (system/containment.js). It
# runs in a session of its own and reads a pipe only the CLI holds: end of file is the CLI's end.
# Meanwhile, where there is no cgroup, the CLI says `+PGID` when a cell's host starts leading a
# process group and `-PGID` once the cell is over, and `=TREE` when a tree is started with
# MMAPBENCH_TREE=TREE in its environment and `~TREE` once it has ended: those groups, and the
# processes that carry those markers however they detached, are what it kills. `!DIR` names a
# cgroup folder outside the run's (a fault round's v1 memory limit) before it is made: what is in
# it is killed, and it is removed.
# $1: the run's cgroup (a leaf per started tree in it), or empty; it may not have been made.
groups=' '
trees=' '
folders=''
while read -r line; do
  case $line in
    '!'*) folders="$folders ${line#!}" ;;
    +*) groups="$groups${line#+} " ;;
    -*)
      id=${line#-}
      case $groups in *" $id "*) groups="${groups%%" $id "*} ${groups#*" $id "}" ;; esac
      ;;
    =*) trees="$trees${line#=} " ;;
    '~'*)
      id=${line#'~'}
      case $trees in *" $id "*) trees="${trees%%" $id "*} ${trees#*" $id "}" ;; esac
      ;;
  esac
done
# A tree the CLI spawned as it died may still be between fork and exec, its environment not yet
# the tree's (nor its parent-death signal set): while any group or tree was left unended, the
# passes go on for 2 s, by when it has exec'd.
passes=0
while :; do
  for group in $groups; do kill -9 -"$group" 2>/dev/null; done
  for tree in $trees; do
    # a marker is random hex: as a fixed string it names no other process
    for environ in $(grep -lsaF "MMAPBENCH_TREE=$tree" /proc/[0-9]*/environ); do
      pid=${environ#/proc/}
      kill -9 "${pid%/environ}" 2>/dev/null
    done
  done
  passes=$((passes + 1))
  case $groups$trees in *[!\ ]*) [ $passes -lt 40 ] || break ;; *) break ;; esac
  sleep 0.05
done
# Each folder named outside the run's group: what is in it, again until it is empty, then the
# folder (a process the OOM killer is ending leaves it a moment later). One never made is skipped.
for folder in $folders; do
  tries=0
  while [ -d "$folder" ] && [ $tries -lt 200 ]; do
    for pid in $(cat "$folder/cgroup.procs" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
    rmdir "$folder" 2>/dev/null || sleep 0.05
    tries=$((tries + 1))
  done
done
# $1 is named before it is made: a CLI killed before it made it, or that could not, left none
[ -n "$1" ] && [ -d "$1" ] || exit 0
# The kernel kills the group and every leaf in it at once (Linux 5.14 and later), and again on
# every pass: a tree the CLI spawned just before it died places itself in its leaf (a shell
# writing its own pid, then exec) and may land there after a first kill, its parent-death signal
# already too late to fire. Nothing can enter a leaf once it is removed.
tries=0
while [ $tries -lt 200 ]; do
  [ -e "$1/cgroup.kill" ] && echo 1 >"$1/cgroup.kill" 2>/dev/null
  for leaf in "$1"/*/; do
    [ -d "$leaf" ] || continue
    # before cgroup.kill: each process, again until none is left
    [ -e "$1/cgroup.kill" ] || for pid in $(cat "$leaf/cgroup.procs"); do kill -9 "$pid" 2>/dev/null; done
    rmdir "$leaf" 2>/dev/null
  done
  rmdir "$1" 2>/dev/null && exit 0
  sleep 0.05
  tries=$((tries + 1))
done
