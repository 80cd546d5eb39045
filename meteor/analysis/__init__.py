"""Beyond one score: explanations, corpus statistics and significance, parallel and Dask runs."""
