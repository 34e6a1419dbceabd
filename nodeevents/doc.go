// Package nodeevents is Node.js's events module (node:events) for code ported to uvgo:
// EventEmitter with everything Node v20's has (prepend, once, listeners and
// rawListeners, eventNames, listenerCount, removal by token or by func identity,
// 'newListener'/'removeListener', errorMonitor, setMaxListeners with the leak warning),
// events.once as a promise and events.on as an async iterator; and the web's
// AbortController and AbortSignal that Node's APIs accept, with a hook (AbortSignal.Watch)
// for packages that make their operations abortable.
//
// Everything here belongs to the loop goroutine, except what says otherwise.
package nodeevents
