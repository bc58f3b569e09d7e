print("wlslider")
