/*
 * A stand-in for bcryptprimitives.dll, for tests under Wine only.
 *
 * Go's runtime (1.22 and later) draws its random numbers from
 * ProcessPrng in bcryptprimitives.dll, which every Windows since 10 has
 * and Wine 8 (Debian 12) lacks: without it a Go program dies before main.
 * This DLL exports ProcessPrng on top of RtlGenRandom (advapi32's
 * SystemFunction036), which Wine has. It is copied into the test prefix's
 * system32 by e2e/wine/prefix and is never part of a release.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
