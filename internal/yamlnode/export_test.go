package yamlnode

// Stepped is the number of runes Byte has walked over.
func (c *Columns) Stepped() int { return c.stepped }
