#include "memkind.h"

#include "parse.h"

#include <stdio.h>
#include <string.h>

/* What each kind is: memkind.h, beside the enum. */
static const struct {
    const char *name, *long_name;
} kinds[UMB_NKINDS] = {
    [UMB_H] = {"H", "pageable"},      [UMB_P] = {"P", "pinned"},     [UMB_D] = {"D", "device"},
    [UMB_MH] = {"MH", "managed-host"}, [UMB_MD] = {"MD", "managed-device"}, [UMB_M] = {"M", "managed"},
    [UMB_WC] = {"WC", "wc"},          [UMB_REG] = {"REG", "registered"}, [UMB_NH] = {"NH", "numa-host"},
};

const char *umb_kind_name(umb_kind k) { return kinds[k].name; }
const char *umb_kind_long(umb_kind k) { return kinds[k].long_name; }
int umb_kind_is_managed(umb_kind k) { return k == UMB_MH || k == UMB_MD || k == UMB_M; }
int umb_kind_needs_gpu(umb_kind k) { return k != UMB_H && k != UMB_NH; }

int umb_kind_parse(const char *s, unsigned accepted, umb_kind *k)
{
    for (int i = 0; i < UMB_NKINDS; i++)
        if ((accepted & UMB_KIND_BIT(i)) && (!strcmp(s, kinds[i].name) || !strcmp(s, kinds[i].long_name))) {
            *k = (umb_kind)i;
            return 0;
        }
    return -1;
}

void umb_kind_list(unsigned accepted, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < UMB_NKINDS; i++)
        if (accepted & UMB_KIND_BIT(i))
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s (%s)", used ? ", " : "",
                                     kinds[i].name, kinds[i].long_name);
}

static const struct {
    unsigned bit;
    const char *name;
} hints[] = {
    {UMB_ADV_PREFERRED_CPU, "preferred=cpu"}, {UMB_ADV_PREFERRED_GPU, "preferred=gpu"},
    {UMB_ADV_ACCESSED_BY_GPU, "accessed-by=gpu"}, {UMB_ADV_ACCESSED_BY_CPU, "accessed-by=cpu"},
    {UMB_ADV_READ_MOSTLY, "read-mostly"},
};

static unsigned hint_bit(const char *t)
{
    if (!strcmp(t, "accessed-by")) return UMB_ADV_ACCESSED_BY_GPU;
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (!strcmp(t, hints[i].name)) return hints[i].bit;
    return 0;
}

int umb_advise_parse(const char *list, unsigned *advise, char *err, size_t n)
{
    char copy[256], *items[16];
    unsigned a = 0;
    int count, again;
    if (strlen(list) >= sizeof copy) return umb_errf(err, n, "--advise: value too long (%zu characters)", strlen(list));
    int how = umb_list_items(list, copy, sizeof copy, items, 16, &count);
    if (how == -2) return umb_errf(err, n, "--advise %s: more than 16 hints; each hint once", list);
    if (how)
        return umb_errf(err, n, "--advise %s: an empty hint; accepted: preferred=cpu|gpu, accessed-by=gpu|cpu, read-mostly, "
                        "none (comma-separated, each once)", list);
    if ((again = umb_list_repeat(items, count)) >= 0)
        return umb_errf(err, n, "--advise %s: '%s' named twice; each hint once", list, items[again]);
    for (int i = 0; i < count; i++) {
        const char *t = items[i];
        unsigned bit = hint_bit(t);
        if (!bit && count > 1 && !strcmp(t, "none"))
            return umb_errf(err, n, "--advise %s: none excludes every other hint", list);
        if (!bit && strcmp(t, "none"))
            return umb_errf(err, n, "--advise %s: unknown hint '%s'; accepted: preferred=cpu|gpu, accessed-by=gpu|cpu "
                            "(accessed-by alone: gpu), read-mostly, none (comma-separated)", list, t);
        a |= bit;
    }
    if ((a & UMB_ADV_PREFERRED_CPU) && (a & UMB_ADV_PREFERRED_GPU))
        return umb_errf(err, n, "--advise %s: preferred=cpu and preferred=gpu exclude each other", list);
    *advise = a;
    return 0;
}

void umb_advise_string(unsigned a, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < sizeof hints / sizeof hints[0]; i++)
        if (a & hints[i].bit)
            used += (size_t)snprintf(buf + used, used < n ? n - used : 0, "%s%s", used ? "," : "", hints[i].name);
    if (!used) snprintf(buf, n, "none");
}
