// Package safefile opens and writes files of an untrusted tree without following links out of it or reading without bound.
package safefile
