package scan

// SetReadHook sets the function called with the path of every file just
// before the scan reads it, until the returned restore is called.
func SetReadHook(f func(name string)) (restore func()) {
	testHookRead = f
	return func() { testHookRead = nil }
}
