.tables[]
