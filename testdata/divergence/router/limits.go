package router

// minQuality is the quality below which a HANDBACK goes up a level.
const minQuality = 0.7
