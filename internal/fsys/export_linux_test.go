package fsys

const isLinux = true
