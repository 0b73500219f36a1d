// tcmalloc (gperftools) replaces malloc for the whole process; see docs/performance.md.
#include <gperftools/tcmalloc.h>
