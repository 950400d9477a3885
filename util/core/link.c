#include "link.h"

#include <math.h>
#include <stdio.h>

double umb_pcie_gbs(const char *link)
{
    static const double gts[] = {0, 2.5, 5, 8, 16, 32, 64};
    int gen, width;
    if (!link || sscanf(link, "Gen%d x%d", &gen, &width) != 2 || gen < 1 || gen > 5 || width < 1) return NAN;
    double encoding = gen <= 2 ? 8.0 / 10 : 128.0 / 130;
    return gts[gen] * width * encoding / 8;
}
