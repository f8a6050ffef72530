"""What a benchmark's child process reads of its own memory, as source text for ``python -c`` children: ``rss()``,
the resident set now, and ``hwm()``, its peak so far (Linux's /proc; bytes). Shared by bench_setup.py and
bench_memory_limits.py, whose children measure a read in a fresh interpreter."""

PROC_MEMORY = r"""
def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
def hwm():
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM"))
"""
