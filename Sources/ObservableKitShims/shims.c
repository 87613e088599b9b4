#include "ObservableKitShims.h"

#if defined(_WIN32)
static __declspec(thread) void *okit_frame = 0;
#else
static __thread void *okit_frame = 0;
#endif

void *okit_current_frame(void) { return okit_frame; }
void okit_set_current_frame(void *frame) { okit_frame = frame; }
