"""The site's date formats per language (``FORMAT_MODULE_PATH``), over Django's own: templates
name a format (``|date:"SHORT_DATETIME_FORMAT"``) and each language writes it its own way
("Sun 29 Nov, 14:05 UTC"; "dimanche 29 novembre, 14:05 UTC"), never English abbreviations
in a French page."""
