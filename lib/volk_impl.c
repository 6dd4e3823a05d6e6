/* volk's implementation, from the system's volk package (Debian: libvulkan-volk-dev). */
#include <volk.c>
