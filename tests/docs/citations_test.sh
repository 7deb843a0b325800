#!/bin/sh
# Every citation of docs/model.md names a section it has ("docs/model.md §N", "model.md §1, §5 and §6": each N a
# heading "## N." there), and nothing in the repository names a file outside it. Usage: citations_test.sh SOURCE_DIR
set -eu
root=${1:?usage: citations_test.sh SOURCE_DIR}
cd "$root"

# The files of the repository: git's list where it is a checkout, else every file but build folders.
files=$(mktemp)
trap 'rm -f "$files"' EXIT
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z --cached --others --exclude-standard >"$files"
else
  find . -path ./build -prune -o -path './build-*' -prune -o -path ./.git -prune -o -type f -print0 >"$files"
fi

sections=$(grep -oE '^## [0-9]+\.' docs/model.md | grep -oE '[0-9]+' | tr '\n' ' ')
status=0

# "model.md §1, §5 and §6", "model.md §2 to §6": every § number in the run that follows the file's name.
xargs -0 grep -IHnoE 'model\.md §[0-9]+([ ,]*(and|or|to|-)?[ ,]*§[0-9]+)*' <"$files" >"$files.cites" || true
while IFS= read -r hit; do
  for n in $(printf '%s\n' "${hit#*:*:}" | grep -oE '§[0-9]+' | tr -d '§'); do
    case " $sections " in
      *" $n "*) ;;
      *) echo "${hit%%:*}: cites docs/model.md §$n, which has no section $n (sections: $sections)"; status=1 ;;
    esac
  done
done <"$files.cites"
rm -f "$files.cites"

# Files that are not in the repository: the model's old name and the house notes kept outside it.
outside=$(xargs -0 grep -IlE 'MODEL[.]md|CONVENTIONS[.]md|/work/(shared|main)' <"$files" || true)
if [ -n "$outside" ]; then
  echo "these name a file outside the repository (cite docs/model.md §N or a paper instead):"
  echo "$outside"
  status=1
fi

[ "$status" -eq 0 ] && echo "every docs/model.md citation names one of its sections ($sections)"
exit "$status"
