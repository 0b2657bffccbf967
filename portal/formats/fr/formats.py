# Un moment avec sa date : « 29 novembre 2026, 14:05 UTC ».
DATETIME_FORMAT = "j F Y, H:i T"
# Un moment proche (une échéance dans une liste) : « dimanche 29 novembre, 14:05 UTC » (Django
# abrège les jours sans point, « dim », et les mois en capitale, « Nov »).
SHORT_DATETIME_FORMAT = "l j F, H:i T"
