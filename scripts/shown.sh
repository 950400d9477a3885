# shown TEXT...: TEXT on one line, by the one rule the C programs and the
# Python scripts show a value by (docs/output.md, "Control characters"):
# a C0 control, DEL, a C1 control and a byte that is not UTF-8 as \xNN,
# everything else as it is. A script that runs where no file can be beside
# it (sbatch's spool, bsub's standard input) holds a copy of these lines;
# tests/props/test_shown.py checks every copy against this one.
shown() {
    printf '%s' "$*" | LC_ALL=C od -An -v -tu1 | LC_ALL=C awk '
    { for (f = 1; f <= NF; f++) b[n++] = $f + 0 }
    END {
        for (i = 0; i < n; i += len) {
            c = b[i]; d = b[i + 1]
            len = c < 128 ? 1 : c < 194 || c > 244 ? 0 : c < 224 ? 2 : c < 240 ? 3 : 4
            for (k = 1; k < len; k++) if (i + k >= n || b[i + k] < 128 || b[i + k] > 191) len = 0
            if ((c == 224 && d < 160) || (c == 237 && d > 159) || (c == 240 && d < 144) || (c == 244 && d > 143)) len = 0
            if (len == 0 || c < 32 || c == 127) { printf "\\x%02x", c; len = 1; continue }
            if (c == 194 && d < 160) { printf "\\x%02x", d; continue }
            for (k = 0; k < len; k++) printf "%c", b[i + k]
        }
        printf "\n"
    }'
}
