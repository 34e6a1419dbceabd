package promise

// IdleWorkers is how many coroutines wait in s's pool for the next Async body.
func IdleWorkers(s Scheduler) int { return RuntimeOf(s).nIdle }
