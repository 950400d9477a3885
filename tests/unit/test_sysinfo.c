/* CPU binding text, PCIe and driver fallbacks. */
#include "sysinfo.h"
#include "check.h"

#include <stdlib.h>

int main(void)
{
    char buf[256];
    umb_cpu_binding(buf, sizeof buf);
    CHECK(buf[0] >= '0' && buf[0] <= '9');  /* "0-1", "0", "0,2-3" */
    CHECK(strspn(buf, "0123456789,-") == strlen(buf));
    umb_hostname(buf, sizeof buf);
    CHECK(buf[0] != '\0');
    umb_pcie_link("ffff:ff:ff.f", buf, sizeof buf);
    CHECK_CONTAINS(buf, "unknown");
    CHECK(umb_pci_numa_node("ffff:ff:ff.f") == -1);
    umb_driver_version_from("NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (dvs-builder@U22)", buf, sizeof buf);
    CHECK(strcmp(buf, "580.159.04") == 0);
    umb_driver_version_from("NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023", buf, sizeof buf);
    CHECK(strcmp(buf, "535.104.05") == 0);
    umb_driver_version_from("garbage", buf, sizeof buf);
    CHECK(strcmp(buf, "unknown") == 0);
    return check_done("test_sysinfo");
}
