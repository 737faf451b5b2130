.results[] | [.writeMethod, .strategy, .pool, (.writerSeconds | floor), .rowsWritten, .lost, .deadLettered, .duplicated, .outcome] | @tsv
