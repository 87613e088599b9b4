// Stand-in for Apple's <pthread.h>: the system header, plus pthread_main_np, which Apple's
// declares and glibc's does not.
#pragma once
#include_next <pthread.h>
int pthread_main_np(void);
