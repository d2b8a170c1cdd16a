"""The demo band's own tables: its catalogue, repertoire, settings, equipment, staff, users, pay rates and venues,
and the pools of names, notes and messages the demo draws its clients and details from."""

CURRENCY = "EUR"  # the band plays in Austria, Germany and Italy

# --- the catalogue -------------------------------------------------------------------------------------

TEAMS = {
    "Vocals": "Lead and backing singers.",
    "Rhythm": "Guitar, bass, drums and keys.",
    "Horns": "Saxophone, trumpet and trombone.",
    "Strings": "The ceremony strings.",
    "Crew": "Sound, light and the DJs.",
}

ROLES = [  # name, team, default rate in cents
    ("Lead vocals", "Vocals", 32000),
    ("Backing vocals", "Vocals", 24000),
    ("Guitar", "Rhythm", 26000),
    ("Bass", "Rhythm", 26000),
    ("Drums", "Rhythm", 26000),
    ("Keys", "Rhythm", 26000),
    ("Saxophone", "Horns", 24000),
    ("Trumpet", "Horns", 24000),
    ("Trombone", "Horns", 24000),
    ("Violin", "Strings", 20000),
    ("Viola", "Strings", 20000),
    ("Cello", "Strings", 20000),
    ("DJ", "Crew", 35000),
    ("Sound engineer", "Crew", 28000),
    ("Lighting tech", "Crew", 22000),
]

ROLE_POSITION = {name: position for position, (name, _, _) in enumerate(ROLES, 1)}
ROLE_RATE = {name: cents for name, _, cents in ROLES}

BAND = {"Lead vocals": 1, "Guitar": 1, "Bass": 1, "Drums": 1, "Keys": 1}
ENSEMBLES = {
    "String trio": ("Two violins and a cello.", {"Violin": 2, "Cello": 1}),
    "String quartet": ("Two violins, viola and cello.", {"Violin": 2, "Viola": 1, "Cello": 1}),
    "Acoustic duo": ("Voice and acoustic guitar.", {"Lead vocals": 1, "Guitar": 1}),
    "Jazz quartet": ("Saxophone, keys, upright bass and drums.", {"Saxophone": 1, "Keys": 1, "Bass": 1, "Drums": 1}),
    "Five-piece band": ("Vocals, guitar, bass, drums and keys, with a sound engineer.", {**BAND, "Sound engineer": 1}),
    "Eight-piece band with horns": (
        "The five-piece band with backing vocals, saxophone and trumpet, with sound and light.",
        {**BAND, "Backing vocals": 1, "Saxophone": 1, "Trumpet": 1, "Sound engineer": 1, "Lighting tech": 1},
    ),
    "DJ set": ("A DJ with decks and a small light show.", {"DJ": 1}),
}

PRODUCTS = [  # name, description, default minutes
    ("Ceremony", "Music for the ceremony: entrance, signing and exit.", 45),
    ("Cocktail hour", "Background music while the guests mingle.", 90),
    ("Reception", "Dinner and dancing: up to four sets.", 300),
    ("Afterparty DJ", "The DJ keeps the floor going after the band.", 120),
]
OFFERED = {  # product: its ensembles with how often clients choose them, the default first
    "Ceremony": {"String trio": 5, "String quartet": 2, "Acoustic duo": 2},
    "Cocktail hour": {"Acoustic duo": 6, "Jazz quartet": 2, "String trio": 2},
    "Reception": {"Five-piece band": 5, "Eight-piece band with horns": 3, "DJ set": 2},
    "Afterparty DJ": {"DJ set": 1},
}

PRICES = [  # product, ensemble (None: any), cents, season (None: open-ended, 0: this year, 1: next year)
    ("Ceremony", None, 85000, 0),
    ("Ceremony", None, 90000, 1),
    ("Ceremony", "String quartet", 115000, None),
    ("Ceremony", "Acoustic duo", 70000, None),
    ("Cocktail hour", None, 80000, None),
    ("Cocktail hour", "Jazz quartet", 140000, None),
    ("Reception", None, 350000, 0),
    ("Reception", None, 375000, 1),
    ("Reception", "Eight-piece band with horns", 560000, 0),
    ("Reception", "Eight-piece band with horns", 595000, 1),
    ("Reception", "DJ set", 150000, None),
    ("Afterparty DJ", None, 60000, None),
]

MOMENTS = [  # name, the product it happens in, minutes after the product starts (negative: before it ends)
    ("Processional", "Ceremony", 0),
    ("Signing of the register", "Ceremony", 25),
    ("Recessional", "Ceremony", 40),
    ("Grand entrance", "Reception", 0),
    ("Speeches", "Reception", 45),
    ("First dance", "Reception", 150),
    ("Parent dances", "Reception", 160),
    ("Cake cutting", "Reception", 200),
    ("Bouquet toss", "Reception", 230),
    ("Last dance", "Reception", -10),
]
ALWAYS = {"Processional", "Recessional", "First dance", "Cake cutting", "Last dance"}

SONGS = {  # use: [(title, artist, key, bpm, seconds, genre)]
    "ceremony": [
        ("Canon in D", "Johann Pachelbel", "D", 60, 300, "Classical"),
        ("Bridal Chorus", "Richard Wagner", "Bb", 72, 240, "Classical"),
        ("Wedding March", "Felix Mendelssohn", "C", 120, 290, "Classical"),
        ("Air on the G String", "Johann Sebastian Bach", "D", 60, 330, "Classical"),
        ("Jesu, Joy of Man's Desiring", "Johann Sebastian Bach", "G", 96, 200, "Classical"),
        ("Arrival of the Queen of Sheba", "George Frideric Handel", "Bb", 132, 190, "Classical"),
        ("A Thousand Years", "Christina Perri", "Bb", 139, 285, "Pop"),
        ("Hallelujah", "Leonard Cohen", "C", 56, 280, "Folk"),
    ],
    "ballad": [
        ("Perfect", "Ed Sheeran", "Ab", 63, 263, "Pop"),
        ("Thinking Out Loud", "Ed Sheeran", "D", 79, 281, "Pop"),
        ("All of Me", "John Legend", "Ab", 63, 269, "Soul"),
        ("At Last", "Etta James", "F", 87, 181, "Soul"),
        ("Can't Help Falling in Love", "Elvis Presley", "D", 100, 182, "Rock and roll"),
        ("Make You Feel My Love", "Adele", "Bb", 72, 212, "Pop"),
        ("Shallow", "Lady Gaga & Bradley Cooper", "G", 96, 216, "Pop"),
        ("What a Wonderful World", "Louis Armstrong", "F", 72, 139, "Jazz"),
        ("Your Song", "Elton John", "Eb", 64, 241, "Pop"),
        ("Stand by Me", "Ben E. King", "A", 118, 178, "Soul"),
    ],
    "dance": [
        ("Uptown Funk", "Mark Ronson ft. Bruno Mars", "Dm", 115, 270, "Funk"),
        ("September", "Earth, Wind & Fire", "A", 126, 215, "Funk"),
        ("Dancing Queen", "ABBA", "A", 101, 231, "Disco"),
        ("Mr. Brightside", "The Killers", "Db", 148, 222, "Rock"),
        ("Sweet Caroline", "Neil Diamond", "B", 128, 203, "Pop"),
        ("I Wanna Dance with Somebody", "Whitney Houston", "Gb", 119, 291, "Pop"),
        ("Shut Up and Dance", "Walk the Moon", "Db", 128, 199, "Pop"),
        ("Don't Stop Me Now", "Queen", "F", 156, 209, "Rock"),
        ("Livin' on a Prayer", "Bon Jovi", "Em", 123, 249, "Rock"),
        ("Crazy in Love", "Beyoncé", "Dm", 99, 236, "R&B"),
        ("Superstition", "Stevie Wonder", "Ebm", 100, 245, "Funk"),
        ("Valerie", "Mark Ronson ft. Amy Winehouse", "Eb", 106, 219, "Soul"),
        ("Love On Top", "Beyoncé", "C", 94, 267, "R&B"),
        ("Happy", "Pharrell Williams", "Fm", 160, 233, "Pop"),
        ("Marry You", "Bruno Mars", "F", 145, 230, "Pop"),
        ("Get Lucky", "Daft Punk", "F#m", 116, 248, "Disco"),
        ("Twist and Shout", "The Beatles", "D", 124, 153, "Rock and roll"),
        ("Don't Stop Believin'", "Journey", "E", 119, 250, "Rock"),
        ("I Gotta Feeling", "The Black Eyed Peas", "G", 128, 289, "Pop"),
        ("Cake by the Ocean", "DNCE", "Em", 119, 219, "Pop"),
        ("(I've Had) The Time of My Life", "Bill Medley & Jennifer Warnes", "E", 109, 290, "Pop"),
        ("Last Dance", "Donna Summer", "Ab", 122, 300, "Disco"),
        ("Atemlos durch die Nacht", "Helene Fischer", "Gm", 128, 219, "Schlager"),
        ("Ein Stern (der deinen Namen trägt)", "DJ Ötzi & Nik P.", "G", 100, 230, "Schlager"),
    ],
    "jazz": [
        ("Fly Me to the Moon", "Frank Sinatra", "C", 120, 148, "Jazz"),
        ("The Way You Look Tonight", "Frank Sinatra", "Eb", 124, 202, "Jazz"),
        ("L-O-V-E", "Nat King Cole", "G", 130, 154, "Jazz"),
        ("Take Five", "The Dave Brubeck Quartet", "Ebm", 172, 324, "Jazz"),
        ("The Girl from Ipanema", "Stan Getz & João Gilberto", "F", 136, 318, "Bossa nova"),
        ("Sway", "Michael Bublé", "Cm", 124, 188, "Jazz"),
        ("Moon River", "Henry Mancini", "F", 90, 162, "Jazz"),
    ],
}
# What couples ask the band never to play; not in the repertoire, so without a catalogue song.
DO_NOT_PLAY = [
    ("Macarena", "Los del Río"),
    ("Chicken Dance", None),
    ("Cotton Eye Joe", "Rednex"),
    ("YMCA", "Village People"),
    ("Gangnam Style", "PSY"),
    ("Who Let the Dogs Out", "Baha Men"),
]
MOMENT_SONGS = {  # moment: (which songs suit it, how they are listed)
    "Processional": ("ceremony", "setlist"),
    "Signing of the register": ("jazz", "setlist"),
    "Recessional": ("ceremony", "setlist"),
    "Grand entrance": ("dance", "setlist"),
    "First dance": ("ballad", "request"),
    "Parent dances": ("ballad", "request"),
    "Last dance": ("ballad", "request"),
}

GIG_STATUSES = [  # name, kind, colour; the office books straight to Confirmed, the default; played gigs are Completed
    ("Inquiry", "inquiry", "#F2C94C"),
    ("Hold", "tentative", "#F2994A"),
    ("Confirmed", "confirmed", "#27AE60"),
    ("Completed", "completed", "#2D9CDB"),
    ("Cancelled", "cancelled", "#9E9E9E"),
]
DEFAULT_STATUS = "Confirmed"

GUESTS = {"Wedding": (50, 220), "Corporate event": (80, 400), "Private party": (30, 150), "Gala": (150, 500)}
GIG_TYPES = {
    "Wedding": "Ceremony, reception, or the whole day.",
    "Corporate event": "Summer parties, Christmas parties, product launches.",
    "Private party": "Birthdays and anniversaries.",
    "Gala": "Charity galas and balls.",
}

CUSTOM_FIELDS = [  # resource, key, label, type, options
    ("gigs", "dress_code", "Dress code", "select", ["Black tie", "Dark suit", "Smart casual", "Band T-shirts"]),
    ("gigs", "parking", "Parking", "text", None),
    ("gigs", "band_meal", "Meal for the band", "boolean", None),
    ("venues", "power_outlets", "Power outlets near the stage", "number", None),
    ("staff_members", "shirt_size", "Shirt size", "select", ["S", "M", "L", "XL", "XXL"]),
    ("equipment", "last_serviced", "Last serviced", "date", None),
    ("contacts", "preferred_channel", "Preferred channel", "select", ["E-mail", "Phone", "WhatsApp"]),
]

# --- equipment -----------------------------------------------------------------------------------------

EQUIPMENT = {  # type: (description, [(model, how many)])
    "PA system": ("Powered speakers with stands and cables.", [("QSC K12.2 pair", 4), ("RCF EVOX 12 column", 2)]),
    "Mixing desk": ("Digital mixer with stage box.", [("Behringer X32 Compact", 2), ("Allen & Heath SQ-5", 2)]),
    "Microphone": ("Vocal and instrument mics.", [("Shure SM58", 10), ("Shure SM57", 4), ("Sennheiser EW 100", 4)]),
    "DI box": ("Direct boxes for keys, bass and acoustic guitar.", [("Radial ProDI", 8), ("BSS AR-133", 4)]),
    "Monitor speaker": ("Stage wedges.", [("Yamaha DXR10", 8)]),
    "Stage light": ("Wash and spot lights.", [("Chauvet SlimPAR Pro H", 12), ("Chauvet Intimidator Spot", 4)]),
    "DJ controller": ("Decks for the DJ sets.", [("Pioneer DDJ-1000", 2), ("Denon Prime 4", 1)]),
}  # fmt: skip

PRODUCT_EQUIPMENT = {
    "Ceremony": {"PA system": 1, "Microphone": 1},
    "Cocktail hour": {"PA system": 1, "Microphone": 1, "DI box": 1},
    "Reception": {
        "PA system": 1,
        "Mixing desk": 1,
        "Microphone": 3,
        "DI box": 2,
        "Monitor speaker": 2,
        "Stage light": 2,
    },
    "Afterparty DJ": {"DJ controller": 1, "Stage light": 2},
}

ISSUES = [  # title, severity, status the equipment is in while the issue is open
    ("Left speaker cuts out at high volume", "high", "in_repair"),
    ("Receiver drops the signal beyond ten metres", "medium", "in_repair"),
    ("Fan rattles and the pan motor stalls", "medium", "in_repair"),
    ("Scratchy fader on channel 7", "low", "available"),
]
RESOLVED_ISSUES = [
    ("Capsule cracked after a fall", "high", "retired"),
    ("Ground lift switch broken", "medium", "retired"),
    ("Loose XLR socket", "low", "available"),
    ("Firmware update needed for scenes", "low", "available"),
]

# --- the people ----------------------------------------------------------------------------------------

STAFF = [  # first name, last name, roles (the primary first), shirt size
    ("Lena", "Hofer", ["Lead vocals", "Backing vocals"], "S"),
    ("Marco", "Bellini", ["Lead vocals", "Backing vocals", "Guitar"], "L"),
    ("Sarah", "Kowalski", ["Lead vocals", "Backing vocals"], "M"),
    ("Julia", "Steiner", ["Backing vocals", "Lead vocals", "Keys"], "S"),
    ("Daniel", "Okafor", ["Lead vocals", "Backing vocals"], "XL"),
    ("Nina", "Brandstätter", ["Backing vocals", "Violin"], None),
    ("Tobias", "Wagner", ["Guitar", "Backing vocals", "Bass"], "L"),
    ("Felix", "Aigner", ["Guitar", "Bass"], "M"),
    ("Luca", "Moretti", ["Guitar", "Backing vocals"], None),
    ("Emma", "Lindqvist", ["Guitar", "Lead vocals"], "S"),
    ("Jakob", "Huber", ["Bass", "Guitar"], "XL"),
    ("Miriam", "Schwarz", ["Bass", "Backing vocals"], "M"),
    ("Paul", "Reiter", ["Bass"], None),
    ("Stefan", "Gruber", ["Drums"], "XXL"),
    ("Kevin", "Mayr", ["Drums", "Backing vocals"], "L"),
    ("Anja", "Wimmer", ["Drums"], "M"),
    ("Clara", "Leitner", ["Keys", "Backing vocals"], "S"),
    ("Matthias", "Egger", ["Keys"], "L"),
    ("Sophie", "Lang", ["Keys", "Lead vocals"], None),
    ("Andreas", "Pichler", ["Saxophone", "Keys"], "L"),
    ("Giulia", "Ferrari", ["Saxophone"], "S"),
    ("Thomas", "Bauer", ["Trumpet"], "XL"),
    ("Martin", "Fuchs", ["Trumpet", "Trombone"], "M"),
    ("Lukas", "Holzer", ["Trombone", "Trumpet"], None),
    ("Katharina", "Eder", ["Violin", "Viola"], "S"),
    ("Hannah", "Berger", ["Violin"], "M"),
    ("Elena", "Rossi", ["Violin"], None),
    ("Sebastian", "Koller", ["Viola", "Violin"], "L"),
    ("Johanna", "Winkler", ["Cello"], "M"),
    ("Benedikt", "Moser", ["Cello"], "L"),
    ("Teresa", "Haas", ["Violin"], None),
    ("Florian", "Schmid", ["Sound engineer", "Lighting tech"], "XL"),
    ("Patrick", "Brunner", ["Sound engineer"], "L"),
    ("Alexander", "Wolf", ["Sound engineer", "DJ"], "M"),
    ("Simon", "Lechner", ["Lighting tech", "Sound engineer"], None),
    ("Lisa", "Auer", ["Lighting tech"], "S"),
    ("Max", "Kaiser", ["DJ"], "L"),
    ("Vanessa", "Horvath", ["DJ", "Lighting tech"], "M"),
    ("Oliver", "Kern", ["Guitar"], None),
]
INACTIVE = {
    "Teresa Haas": "Moved to Berlin; still happy to sub for big string gigs.",
    "Oliver Kern": "On a year abroad.",
}

USERS = [  # e-mail, name, access role, active; a user named like a staff member is that member's own user
    ("admin@band.example", "Eva Maier", "admin", True),
    ("office@band.example", "Markus Lehner", "office", True),
    ("staff@band.example", "Lena Hofer", "staff", True),
    ("crew@band.example", "Florian Schmid", "crew", True),
    ("viewer@band.example", "Ines Kofler", "viewer", True),
    ("tobias.wagner@example.com", "Tobias Wagner", "staff", True),
    ("katharina.eder@example.com", "Katharina Eder", "staff", True),
    ("stefan.gruber@example.com", "Stefan Gruber", "staff", True),
    ("oliver.kern@example.com", "Oliver Kern", "staff", False),
]

# staff@band.example's own staff member: her view under /me (SPEC §10) has gigs, pay, blockouts (days from today,
# length in days after the first, reason) and a few invitations still to answer.
MUSICIAN = "Lena Hofer"
MUSICIAN_BLOCKOUTS = [(24, 6, "Holiday"), (61, 0, "Family wedding")]
MUSICIAN_PENDING = 2

ROLE_PRODUCT_RATES = [  # role, product, cents: the short ceremony pays less, the long reception more
    ("Violin", "Ceremony", 18000),
    ("Viola", "Ceremony", 18000),
    ("Cello", "Ceremony", 18000),
    ("Lead vocals", "Ceremony", 20000),
    ("Guitar", "Ceremony", 18000),
    ("Lead vocals", "Reception", 38000),
    ("Sound engineer", "Reception", 32000),
    ("Lighting tech", "Reception", 26000),
    ("DJ", "Afterparty DJ", 20000),
]
MEMBER_PRODUCT_RATES = [
    ("Lena Hofer", "Reception", 45000),
    ("Marco Bellini", "Reception", 42000),
    ("Katharina Eder", "Ceremony", 22000),
    ("Max Kaiser", "Afterparty DJ", 25000),
]

INVITATION_MESSAGES = [
    "Can you make it? Usual call time.",
    "Dinner is provided and there is parking on site.",
    "Short notice, sorry: our usual player is ill.",
    None,
    None,
]
BLOCKOUT_REASONS = ["Holiday", "Family wedding", "On tour with another band", "Exams", "Surgery", None]

FIRST_NAMES = {  # of brides, and of grooms
    "Bride": ["Anna", "Sophie", "Laura", "Marie", "Julia", "Lea", "Sara", "Chiara", "Francesca", "Charlotte",
              "Emily", "Hanna", "Valentina", "Katrin", "Theresa", "Magdalena", "Olivia", "Elif"],
    "Groom": ["Lukas", "Jonas", "David", "Michael", "Florian", "Matteo", "Alessandro", "Jan", "Niklas", "Benjamin",
              "Christoph", "Philipp", "Georg", "James", "Thomas", "Leon", "Emre", "Samuel"],
}  # fmt: skip
LAST_NAMES = [
    "Müller", "Schmidt", "Weber", "Fischer", "Wagner", "Becker", "Hoffmann", "Koch", "Richter", "Klein",
    "Pichler", "Steiner", "Moser", "Mayer", "Hofmann", "Leitner", "Fuchs", "Eder", "Bianchi", "Romano",
    "Colombo", "Ricci", "Marino", "Greco", "Brown", "Taylor", "Novak", "Horváth", "Kovač", "Lindner",
]  # fmt: skip
PLANNERS = [
    ("Anna", "Lechner", "Alpine Weddings"),
    ("Chiara", "Conti", "Lago Events"),
    ("Sabine", "Roth", "Roth Hochzeitsplanung"),
    ("Claire", "Dubois", "Wedding Atelier Munich"),
]
COMPANIES = ["Alpenbank AG", "Brenner Logistik GmbH", "Nordlicht Software", "Seidl Architekten", "Vitalia Pharma"]
CHARITIES = ["Children's Hospital", "Mountain Rescue", "Music School Foundation", "Red Cross"]

VENUES = [  # name, street, postal code, city, region, country, time zone
    ("Palais Rosengarten", "Rosengasse 4", "1010", "Wien", "Wien", "AT", "Europe/Vienna"),
    ("Schloss Lindenhof", "Schlossallee 1", "5020", "Salzburg", "Salzburg", "AT", "Europe/Vienna"),
    ("Gut Seeblick", "Seestraße 27", "5350", "Strobl", "Salzburg", "AT", "Europe/Vienna"),
    ("Alpenhof Gamsblick", "Dorfstraße 88", "6370", "Kitzbühel", "Tirol", "AT", "Europe/Vienna"),
    ("Weingut Sonnleiten", "Kellergasse 15", "3550", "Langenlois", "Niederösterreich", "AT", "Europe/Vienna"),
    ("Orangerie am Stadtpark", "Parkring 9", "8010", "Graz", "Steiermark", "AT", "Europe/Vienna"),
    ("Gutshof Isarauen", "Auenweg 3", "82049", "Pullach", "Bayern", "DE", "Europe/Berlin"),
    ("Villa Seerose", "Seepromenade 14", "82319", "Starnberg", "Bayern", "DE", "Europe/Berlin"),
    ("Kloster Waldbrunn", "Klosterweg 2", "83229", "Aschau im Chiemgau", "Bayern", "DE", "Europe/Berlin"),
    ("Alte Tuchfabrik", "Fabrikstraße 21", "80337", "München", "Bayern", "DE", "Europe/Berlin"),
    ("Villa Olivera", "Via dei Limoni 8", "38066", "Riva del Garda", "Trentino", "IT", "Europe/Rome"),
    ("Tenuta San Martino", "Strada del Vino 45", "39052", "Caldaro", "Alto Adige", "IT", "Europe/Rome"),
]
LOAD_IN_NOTES = [
    "Loading dock behind the kitchen; the lift takes one flight case at a time.",
    "Park on the gravel by the barn; the stage is forty metres on grass, bring the trolley.",
    "Narrow spiral stair to the hall: keep cases small.",
    "Stage on the terrace; the rain plan is the winter garden.",
    None,
]
PHONE_PREFIX = {"AT": "+43 664", "DE": "+49 151", "IT": "+39 347"}

GIG_NOTES = [
    "The couple would like an unplugged set during dinner.",
    "The bride's father sings one song with the band after the speeches.",
    "Curfew at 01:00: no encores after that.",
    "Surprise song for the grandmother's 90th birthday before the first dance.",
    "Vegetarian meals for the whole band are ordered.",
    "Speeches run long at this venue; keep the second set flexible.",
    None,
    None,
]
PARKING = [
    "Staff car park behind the barn",
    "Two spaces reserved at the service entrance",
    "Public garage, tickets refunded",
]
