/*
 * A stand-in for Windows' bcryptprimitives.dll, for running pbrain-wuzi.exe under a Wine older
 * than 9.0, which lacks the DLL. Rust's std on Windows imports one function from it,
 * ProcessPrng (Windows 10 and later: every machine Gomocup and Piskvork users run has it), to
 * seed its hash maps; this one fills the buffer from advapi32's RtlGenRandom
 * (SystemFunction036), which every Wine has.
 *
 * For testing only: scripts/windows-check.sh builds it beside a copy of the .exe under
 * target/wine/. Never ship it with the engine.
 *
 *   x86_64-w64-mingw32-gcc -shared -O2 -o bcryptprimitives.dll bcryptprimitives.c bcryptprimitives.def
 */
#include <windows.h>

typedef BOOLEAN(WINAPI *RtlGenRandomFn)(PVOID buffer, ULONG length);

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    static RtlGenRandomFn gen_random = NULL;
    if (gen_random == NULL) {
        HMODULE advapi = LoadLibraryA("advapi32.dll");
        if (advapi == NULL)
            return FALSE;
        gen_random = (RtlGenRandomFn)(void *)GetProcAddress(advapi, "SystemFunction036");
        if (gen_random == NULL)
            return FALSE;
    }
    /* RtlGenRandom takes a ULONG length: feed a large buffer in pieces. */
    while (length > 0) {
        ULONG piece = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!gen_random(data, piece))
            return FALSE;
        data += piece;
        length -= piece;
    }
    return TRUE;
}
