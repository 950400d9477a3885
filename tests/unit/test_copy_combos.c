/* umb_copy's combination rules without a GPU (util/drive/copy/copy_combos.c): which
   memory x direction x method make sense, the default matrix, the lists
   (both names of a memory kind), the refusals, what each combination
   allocates, which batches hold the stream, and copies per batch. */
#include "copy/copy_combos.h"
#include "check.h"

static copy_combo combos[512];
static int ncombos;

/* Parses "--memory LIST" etc. given as (which, list) pairs, then chooses. */
static int choose(const char *mem, const char *dir, const char *meth, int peers, char *err, size_t n)
{
    copy_opts o;
    memset(&o, 0, sizeof o);
    if (mem && copy_parse(&o, COPY_OPT_MEMORY, "--memory", mem, err, n)) return 2;
    if (dir && copy_parse(&o, COPY_OPT_DIRECTION, "--direction", dir, err, n)) return 2;
    if (meth && copy_parse(&o, COPY_OPT_METHOD, "--method", meth, err, n)) return 2;
    return copy_choose(&o, peers, combos, 512, &ncombos, err, n);
}

static int has(umb_kind k, copy_dir d, copy_meth m, int p2p)
{
    for (int i = 0; i < ncombos; i++)
        if (combos[i].kind == k && combos[i].dir == d && combos[i].meth == m && combos[i].p2p == p2p) return 1;
    return 0;
}

static void rules(void)
{
    /* Demand paging and prefetch move managed memory only. */
    for (int i = 0; i < COPY_NKINDS; i++)
        for (int d = 0; d < COPY_NDIRS; d++) {
            umb_kind k = copy_kinds[i];
            if (umb_kind_is_managed(k)) continue;
            CHECK(copy_invalid(k, (copy_dir)d, COPY_DEMAND) != NULL);
            CHECK(copy_invalid(k, (copy_dir)d, COPY_PREFETCH) != NULL);
        }
    CHECK(copy_invalid(UMB_MH, COPY_HTOD, COPY_DEMAND) == NULL);
    CHECK(copy_invalid(UMB_MH, COPY_HTOD, COPY_PREFETCH) == NULL);
    CHECK(copy_invalid(UMB_MD, COPY_DTOH, COPY_DEMAND) == NULL);
    CHECK(copy_invalid(UMB_MD, COPY_DTOH, COPY_PREFETCH) == NULL);
    CHECK_CONTAINS(copy_invalid(UMB_MH, COPY_HTOD, COPY_SM), "--method demand");
    CHECK(copy_invalid(UMB_MH, COPY_DTOH, COPY_CE) == NULL);
    CHECK(copy_invalid(UMB_MH, COPY_DTOH, COPY_PREFETCH) != NULL);
    CHECK(copy_invalid(UMB_MD, COPY_DTOH, COPY_CE) != NULL);
    /* htod from host memory; dtod from device memory; peer device only. */
    CHECK(copy_invalid(UMB_D, COPY_HTOD, COPY_CE) != NULL);
    CHECK(copy_invalid(UMB_MD, COPY_HTOD, COPY_CE) != NULL);
    CHECK(copy_invalid(UMB_P, COPY_HTOD, COPY_CE) == NULL);
    CHECK(copy_invalid(UMB_D, COPY_DTOD, COPY_SM) == NULL && copy_invalid(UMB_MD, COPY_DTOD, COPY_CE) == NULL);
    CHECK(copy_invalid(UMB_P, COPY_DTOD, COPY_CE) != NULL && copy_invalid(UMB_D, COPY_DTOD, COPY_DEMAND) != NULL);
    CHECK(copy_invalid(UMB_D, COPY_PEER, COPY_CE) == NULL && copy_invalid(UMB_D, COPY_PEER, COPY_SM) == NULL);
    CHECK(copy_invalid(UMB_P, COPY_PEER, COPY_CE) != NULL && copy_invalid(UMB_MD, COPY_PEER, COPY_CE) != NULL);
    /* sm on pageable memory needs HMM: refused; pinned is fine. */
    CHECK_CONTAINS(copy_invalid(UMB_H, COPY_HTOD, COPY_SM), "HMM");
    CHECK_CONTAINS(copy_invalid(UMB_H, COPY_DTOH, COPY_SM), "HMM");
    CHECK(copy_invalid(UMB_P, COPY_DTOH, COPY_SM) == NULL && copy_invalid(UMB_REG, COPY_HTOD, COPY_SM) == NULL);
    /* bidir: page-locked host memory, copy engines only. */
    CHECK(copy_invalid(UMB_H, COPY_BIDIR, COPY_CE) != NULL);
    CHECK(copy_invalid(UMB_P, COPY_BIDIR, COPY_CE) == NULL && copy_invalid(UMB_WC, COPY_BIDIR, COPY_CE) == NULL &&
          copy_invalid(UMB_REG, COPY_BIDIR, COPY_CE) == NULL);
    CHECK_CONTAINS(copy_invalid(UMB_P, COPY_BIDIR, COPY_SM), "ce only");
    /* copy_fits: -1 is any. */
    CHECK(copy_fits(UMB_P, COPY_HTOD, -1) && !copy_fits(UMB_P, -1, COPY_PREFETCH) && copy_fits(-1, COPY_PEER, COPY_SM));
    CHECK(!copy_fits(UMB_H, COPY_BIDIR, -1) && !copy_fits(-1, COPY_BIDIR, COPY_DEMAND) && copy_fits(-1, -1, -1));
}

static void matrix(void)
{
    char err[512] = "";
    /* The default: 5 host kinds x htod, dtoh with ce; managed prefetch and
       demand both ways; pinned bidir; device dtod; peer (on, off) with 2 GPUs. */
    CHECK(choose(NULL, NULL, NULL, 0, err, sizeof err) == 0 && ncombos == 16);
    CHECK(combos[0].kind == UMB_H && combos[0].dir == COPY_HTOD && combos[0].meth == COPY_CE);
    CHECK(has(UMB_WC, COPY_DTOH, COPY_CE, 0) && has(UMB_MD, COPY_DTOH, COPY_DEMAND, 0) && has(UMB_P, COPY_BIDIR, COPY_CE, 0));
    CHECK(!has(UMB_D, COPY_PEER, COPY_CE, 1));
    CHECK(choose(NULL, NULL, NULL, 1, err, sizeof err) == 0 && ncombos == 18);
    CHECK(has(UMB_D, COPY_PEER, COPY_CE, 1) && has(UMB_D, COPY_PEER, COPY_CE, 0));
    /* Everything crossed: only sensible combinations, and every one of them. */
    CHECK(choose("all", "all", "all", 1, err, sizeof err) == 0);
    int sensible = 0;
    for (int i = 0; i < COPY_NKINDS; i++) for (int d = 0; d < COPY_NDIRS; d++) for (int m = 0; m < COPY_NMETHS; m++)
        sensible += !copy_invalid(copy_kinds[i], (copy_dir)d, (copy_meth)m) * (d == COPY_PEER && m == COPY_CE ? 2 : 1);
    CHECK(ncombos == sensible);
    for (int i = 0; i < ncombos; i++) CHECK(copy_invalid(combos[i].kind, combos[i].dir, combos[i].meth) == NULL);
    /* peer without 2 GPUs: skipped, not refused (the program says 77). */
    CHECK(choose(NULL, "peer", NULL, 0, err, sizeof err) == 0 && ncombos == 0);
    /* Short and long names alike; all is not a claim that every value fits. */
    CHECK(choose("MD,managed-host", "htod,dtoh", "prefetch", 0, err, sizeof err) == 0 && ncombos == 2);
    CHECK(has(UMB_MH, COPY_HTOD, COPY_PREFETCH, 0) && has(UMB_MD, COPY_DTOH, COPY_PREFETCH, 0));
    CHECK(choose("H,P,WC,REG,MH", "htod", "ce", 0, err, sizeof err) == 0 && ncombos == 5);
    CHECK(choose("H,P,WC,REG,MH,MD,D", "dtoh", "ce,prefetch", 0, err, sizeof err) == 1);  /* D is never a dtoh kind */
    CHECK_CONTAINS(err, "--memory device: no sensible combination with the other values asked for");
    CHECK(choose("all", "htod", NULL, 0, err, sizeof err) == 0 && !has(UMB_D, COPY_HTOD, COPY_CE, 0));
}

static void refusals(void)
{
    char err[512] = "";
    CHECK(choose("bogus", NULL, NULL, 0, err, sizeof err) == 2);
    CHECK_CONTAINS(err, "--memory bogus: unknown 'bogus'; accepted: pageable, pinned, wc, registered, managed-host, managed-device, device, all");
    CHECK(choose("M", NULL, NULL, 0, err, sizeof err) == 2);  /* umb_um's policy kind is not umb_copy's */
    CHECK(choose("pinned,", NULL, NULL, 0, err, sizeof err) == 2);
    CHECK_CONTAINS(err, "--memory pinned,: expected a comma-separated list of");
    CHECK(choose(NULL, "sideways", NULL, 0, err, sizeof err) == 2);
    CHECK_CONTAINS(err, "accepted: htod, dtoh, dtod, bidir, peer, all");
    /* Nothing fits: everything given is named, with the closest reason. */
    CHECK(choose("pinned", NULL, "prefetch", 0, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "--memory pinned --method prefetch: no sensible combination: prefetch and demand move managed memory");
    CHECK(choose("pageable", "bidir", NULL, 0, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "--memory pageable --direction bidir: no sensible combination: bidir needs page-locked");
    /* One value fits nothing with the others: it alone is named. */
    CHECK(choose("pinned,managed-device", "htod", NULL, 0, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "--memory managed-device: no sensible combination with the other values asked for: htod copies from host memory");
    CHECK(choose("MD,H", "dtoh", "demand,sm", 0, err, sizeof err) == 1);
    CHECK_CONTAINS(err, "--memory pageable: no sensible combination with the other values asked for: sm writes pageable");
    copy_opts o;
    memset(&o, 0, sizeof o);
    CHECK(copy_parse(&o, COPY_NLISTS, "--copies", "0", err, sizeof err) == 1);
    CHECK_CONTAINS(err, "--copies 0: expected copies per timed batch from 1 to 1000");
    CHECK(copy_parse(&o, COPY_NLISTS, "--copies", "12", err, sizeof err) == 0 && o.copies == 12);
}

static void layout_hold_count(void)
{
    copy_layout l;
    copy_opts o;
    memset(&o, 0, sizeof o);
    copy_layout_of(&(copy_combo){UMB_MH, COPY_HTOD, COPY_PREFETCH, 0}, &l);
    CHECK(l.ndirs == 1 && l.src[0] == UMB_MH && l.dst[0] == COPY_SAME);  /* moved in place */
    copy_layout_of(&(copy_combo){UMB_MH, COPY_HTOD, COPY_DEMAND, 0}, &l);
    CHECK(l.src[0] == UMB_MH && l.dst[0] == UMB_D);
    copy_layout_of(&(copy_combo){UMB_MD, COPY_DTOH, COPY_DEMAND, 0}, &l);
    CHECK(l.src[0] == UMB_MD && l.dst[0] == UMB_H);  /* the CPU reads it into pageable memory */
    copy_layout_of(&(copy_combo){UMB_MD, COPY_DTOH, COPY_PREFETCH, 0}, &l);
    CHECK(l.src[0] == UMB_MD && l.dst[0] == COPY_SAME);
    copy_layout_of(&(copy_combo){UMB_WC, COPY_DTOH, COPY_CE, 0}, &l);
    CHECK(l.src[0] == UMB_D && l.dst[0] == UMB_WC);
    copy_layout_of(&(copy_combo){UMB_REG, COPY_BIDIR, COPY_CE, 0}, &l);
    CHECK(l.ndirs == 2 && l.src[0] == UMB_REG && l.dst[0] == UMB_D && l.src[1] == UMB_D && l.dst[1] == UMB_REG);
    copy_layout_of(&(copy_combo){UMB_D, COPY_PEER, COPY_SM, 1}, &l);
    CHECK(l.src[0] == UMB_D && l.dst[0] == UMB_D);
    /* The stream is held only where queueing never waits for the GPU. */
    CHECK(copy_holdable(&(copy_combo){UMB_P, COPY_HTOD, COPY_CE, 0}) && copy_holdable(&(copy_combo){UMB_D, COPY_DTOD, COPY_CE, 0}));
    CHECK(!copy_holdable(&(copy_combo){UMB_H, COPY_HTOD, COPY_CE, 0}) && !copy_holdable(&(copy_combo){UMB_MH, COPY_DTOH, COPY_CE, 0}));
    CHECK(!copy_holdable(&(copy_combo){UMB_MH, COPY_HTOD, COPY_PREFETCH, 0}) && !copy_holdable(&(copy_combo){UMB_MD, COPY_DTOH, COPY_DEMAND, 0}));
    CHECK(copy_holdable(&(copy_combo){UMB_MH, COPY_HTOD, COPY_DEMAND, 0}) && copy_holdable(&(copy_combo){UMB_H, COPY_DTOD, COPY_SM, 0}));
    CHECK(copy_holdable(&(copy_combo){UMB_D, COPY_PEER, COPY_CE, 1}) && !copy_holdable(&(copy_combo){UMB_D, COPY_PEER, COPY_CE, 0}));
    /* Copies per batch: 256 MiB worth within 2..64, --copies, managed 1. */
    copy_combo pinned = {UMB_P, COPY_HTOD, COPY_CE, 0}, managed = {UMB_MH, COPY_HTOD, COPY_PREFETCH, 0};
    CHECK(copy_count(&pinned, &o, 4096) == 64 && copy_count(&pinned, &o, (size_t)16 << 20) == 16);
    CHECK(copy_count(&pinned, &o, (size_t)256 << 20) == 2 && copy_count(&pinned, &o, (size_t)1 << 30) == 2);
    o.copies = 7;
    CHECK(copy_count(&pinned, &o, 4096) == 7 && copy_count(&managed, &o, 4096) == 1);
    CHECK(!strcmp(copy_dir_name(COPY_BIDIR), "bidir") && !strcmp(copy_meth_name(COPY_PREFETCH), "prefetch"));
}

int main(void)
{
    rules();
    matrix();
    refusals();
    layout_hold_count();
    return check_done("test_copy_combos");
}
