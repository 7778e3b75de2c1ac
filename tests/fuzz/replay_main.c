/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A main() for the fuzz targets without libFuzzer: runs each input file once, so that
 * ctest replays the seed corpus and the regression inputs on every compiler and
 * Wireshark version (a broken invariant aborts, failing the test).
 *
 *   replay_v2 DIR_OR_FILE...
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint8_t *data;
    long size;

    if (!f || fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        exit(1);
    }
    data = malloc(size ? (size_t)size : 1);     /* exact size: out-of-bounds reads show */
    if (!data || fread(data, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    LLVMFuzzerTestOneInput(data, (size_t)size);
    free(data);
    return 1;
}

static int run_path(const char *path)
{
    struct stat st;
    DIR *dir;
    struct dirent *e;
    char file[4096];
    int n = 0;

    if (stat(path, &st) != 0)
        return 0;                               /* a target without regressions yet */
    if (!S_ISDIR(st.st_mode))
        return run_file(path);
    if (!(dir = opendir(path)))
        return 0;
    while ((e = readdir(dir))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(file, sizeof file, "%s/%s", path, e->d_name);
        n += run_file(file);
    }
    closedir(dir);
    return n;
}

int main(int argc, char **argv)
{
    int n = 0;

    if (LLVMFuzzerInitialize)
        LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++)
        n += run_path(argv[i]);
    printf("replay: %d inputs passed\n", n);
    return n > 0 ? 0 : 1;
}
