/* The launch floor of bench/launch.sh: a process that does nothing. Built
 * twice: alone (fork, exec, the loader) and linked to libpmix.so.2 without
 * calling it (what loading the library costs). */
int main(void)
{
    return 0;
}
