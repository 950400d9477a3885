/* Nominal link figures (docs/method.md, "The bound of a path"). */
#ifndef UMB_LINK_H
#define UMB_LINK_H

/* One direction's GB/s (10^9) of a PCIe link as umb_pcie_link writes it
   ("Gen5 x16 (max Gen5 x16)"), from the current generation and width and
   the line encoding; NAN when it cannot be read. */
double umb_pcie_gbs(const char *link);

#endif
