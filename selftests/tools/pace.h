/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pacing shared by the test tools' senders: absolute deadlines counted
 * from a start time, so a sender does not drift and catches up if late;
 * and the clock the tools time their runs with.
 */
#ifndef PADNET_TOOLS_PACE_H
#define PADNET_TOOLS_PACE_H

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

/* Seconds on the monotonic clock: what the tools time their runs with. */
static inline double pace_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * pace_until - sleep until datagram @i of a stream of @rate per second,
 * started at @start, is due; give up early once *@stop is set (@stop may
 * be NULL). i < 2^32, so i * 10^9 fits in 64 bits.
 */
static inline void pace_until(const struct timespec *start, uint64_t i,
			      uint64_t rate, volatile sig_atomic_t *stop)
{
	uint64_t ns = i * 1000000000u / rate;
	struct timespec next;

	next.tv_sec = start->tv_sec + (time_t)(ns / 1000000000u);
	next.tv_nsec = start->tv_nsec + (long)(ns % 1000000000u);
	if (next.tv_nsec >= 1000000000L) {
		next.tv_sec++;
		next.tv_nsec -= 1000000000L;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next,
			       NULL) == EINTR && !(stop && *stop))
		;
}

#endif /* PADNET_TOOLS_PACE_H */
