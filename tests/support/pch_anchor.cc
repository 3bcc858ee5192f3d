// The one source of pmixpp_test_pch: the target exists to compile the
// precompiled header that every Criterion test program reuses
// (cmake/PmixppBuildSpeed.cmake); this program is never run.
int main()
{
    return 0;
}
