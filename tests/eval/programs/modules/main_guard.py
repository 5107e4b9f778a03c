import mypkg.sub
def main():
    print("main ran, __name__ =", __name__)
if __name__ == "__main__":
    main()
print(mypkg.sub.__name__ != "__main__")
