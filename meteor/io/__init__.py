"""Reading inputs (plain text, TSV, JSONL, CSV; ids; one line-break rule) and writing exports."""
