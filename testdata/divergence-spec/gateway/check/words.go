package check

// minWords is the gateway's floor for a DELEGATE's scope.
const minWords = 12
